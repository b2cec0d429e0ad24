/**
 * Certainty of OCR'd fields that no checksum covers (an ID front's names, a licence number, a
 * ticket's masses): a field is certain only when two independent readings (here two preprocessings
 * of the same page) extracted exactly the same value. A field with a checksum that passes (the SA ID
 * number's Luhn digit) is certain on its own. A missing value (`null`, `[]`) claims nothing and is
 * never listed.
 */

const isEmpty = (v: unknown) =>
  v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);

export type FieldCertainty = { uncertain: string[]; fieldConfidence: Record<string, number> };

/**
 * `first` is the reading returned, `second` the confirming one. `verified` names fields already
 * settled by a check (certain whatever the second reading says); `ignore` names fields that are not
 * claims about the document (raw text, derived flags).
 */
export function agreeFields(
  first: Record<string, unknown>,
  second: Record<string, unknown> | null,
  { verified = [], ignore = [] }: { verified?: string[]; ignore?: string[] } = {},
): FieldCertainty {
  const uncertain: string[] = [];
  const fieldConfidence: Record<string, number> = {};
  for (const [name, value] of Object.entries(first)) {
    if (ignore.includes(name) || isEmpty(value)) continue;
    if (verified.includes(name)) {
      fieldConfidence[name] = 0.98;
      continue;
    }
    const agreed = second !== null && JSON.stringify(second[name]) === JSON.stringify(value);
    fieldConfidence[name] = agreed ? 0.9 : 0.5;
    if (!agreed) uncertain.push(name);
  }
  return { uncertain, fieldConfidence };
}

/** Every non-empty field certain: barcode payloads (the decoder's own error correction settles them). */
export function allCertain(fields: Record<string, unknown>, confidence = 0.99): FieldCertainty {
  const fieldConfidence: Record<string, number> = {};
  for (const [name, value] of Object.entries(fields))
    if (!isEmpty(value)) fieldConfidence[name] = confidence;
  return { uncertain: [], fieldConfidence };
}

/**
 * Two readings by different means (the AI provider and local OCR) that give a field the same value
 * confirm it: the field leaves `uncertain`. Fields they disagree on stay listed.
 */
export function confirmedByAgreement(
  uncertain: string[] | undefined,
  fields: Record<string, unknown>,
  other: Record<string, unknown>,
): string[] {
  return (uncertain ?? []).filter(
    (name) => isEmpty(other[name]) || JSON.stringify(other[name]) !== JSON.stringify(fields[name]),
  );
}
