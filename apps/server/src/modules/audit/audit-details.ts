import { looksPersonal } from '@/platform/personal-text';
import { isSealedValue } from '@/platform/sealing';

export { looksPersonal };

/** Seals and opens one value of `audit_events.details` under the tenant's audit key (issue 26). */
export type AuditSealer = {
  seal(tenantId: string, column: string, value: string): Promise<string>;
  open(tenantId: string, column: string, stored: string): Promise<string>;
};

/** The associated data's column: a sealed value copied into another table or tenant does not open. */
export const AUDIT_DETAILS_COLUMN = 'audit_events.details';

/**
 * Keys whose values are a data subject's identifiers or name, sealed whatever they hold (a masked
 * number too: the mask keeps digits). Other values stay as they are, so SQL can still filter on
 * them (`details->>'siteId'`, the watchlist hit export) and the trail's shape stays readable.
 */
export const PERSONAL_KEYS: ReadonlySet<string> = new Set([
  'idNumber',
  'driverIdNumber',
  'personIdNumber',
  'identityNumber',
  'passportNumber',
  'driverPassportNumber',
  'personalNumber',
  'documentNumber',
  'mrzLines',
  'driverName',
  'driverSurname',
  'personName',
  'fullName',
  'firstName',
  'surname',
]);

async function mapStrings(
  value: unknown,
  personal: boolean,
  map: (text: string, personal: boolean) => string | Promise<string>,
): Promise<unknown> {
  if (typeof value === 'string') return map(value, personal);
  if (Array.isArray(value))
    return Promise.all(value.map((item) => mapStrings(item, personal, map)));
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    const entries = await Promise.all(
      Object.entries(value).map(
        async ([key, item]) =>
          [key, await mapStrings(item, personal || PERSONAL_KEYS.has(key), map)] as const,
      ),
    );
    return Object.fromEntries(entries);
  }
  return value;
}

/** Whether any string in the details would be sealed (for a writer without a sealer). */
export function needsSealing(details: unknown, personal = false): boolean {
  if (typeof details === 'string') return personal || looksPersonal(details);
  if (Array.isArray(details)) return details.some((item) => needsSealing(item, personal));
  if (details && typeof details === 'object' && !(details instanceof Date))
    return Object.entries(details).some(([key, item]) =>
      needsSealing(item, personal || PERSONAL_KEYS.has(key)),
    );
  return false;
}

/** The details as stored: personal strings replaced by `sv1.…` sealed values. */
export async function sealDetails(
  sealer: AuditSealer,
  tenantId: string,
  details: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  return (await mapStrings(details, false, (text, personal) =>
    // A string shaped like a sealed value is sealed too, so reading it back never misreads it.
    personal || looksPersonal(text) || isSealedValue(text)
      ? sealer.seal(tenantId, AUDIT_DETAILS_COLUMN, text)
      : text,
  )) as Record<string, unknown>;
}

/**
 * Details stored before the tenant's audit key existed (keys.seal-stored-data): the strings
 * sealDetails would seal, sealed, and everything else exactly as it is (the append-only trigger
 * accepts only plain strings becoming sealed ones, migration …_sealed_old_audit_details_security,
 * whose audit_details_unsealed() names the same strings). A string already `sv1.…` stays as it is.
 */
export async function sealStoredDetails(
  sealer: AuditSealer,
  tenantId: string,
  details: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  return (await mapStrings(details, false, (text, personal) =>
    !text.startsWith('sv1.') && (personal || looksPersonal(text))
      ? sealer.seal(tenantId, AUDIT_DETAILS_COLUMN, text)
      : text,
  )) as Record<string, unknown>;
}

/** The details as written: every sealed value opened (rows stored before sealing read as they are). */
export async function openDetails<T extends Record<string, unknown> | null>(
  sealer: AuditSealer,
  tenantId: string,
  details: T,
): Promise<T> {
  if (!details) return details;
  return (await mapStrings(details, false, (text) =>
    isSealedValue(text) ? sealer.open(tenantId, AUDIT_DETAILS_COLUMN, text) : text,
  )) as T;
}
