/** A South African phone number: 0XX XXX XXXX or +27 XX XXX XXXX (spaces, dashes allowed). */
export function normalisePhone(value: string): string | null {
  const compact = value.replace(/[\s\-()]/g, '');
  if (/^0\d{9}$/.test(compact)) return compact;
  const international = /^(?:\+|00)?27(\d{9})$/.exec(compact);
  return international ? `0${international[1]}` : null;
}

export const PHONE_MESSAGE = 'Enter a South African number, e.g. 082 123 4567 or +27 82 123 4567.';
