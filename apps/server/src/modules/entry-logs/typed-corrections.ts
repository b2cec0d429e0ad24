import type { CorrectionInputSchema } from '@boomgate/contracts/corrections';
import type { z } from 'zod';

import type { CitedReadings } from '@/modules/documents';

type CorrectionInput = z.output<typeof CorrectionInputSchema>;

/** The cited readings' driver fields a correction sent with the entry may set, by reading type. */
const DRIVER_FIELDS = {
  id: { section: 'identity', fields: ['identityNumber', 'givenNames', 'surname'] },
  license: { section: 'licence', fields: ['nameOnCard', 'idNumber'] },
  passport: { section: 'passport', fields: ['passportNumber', 'givenNames', 'surname'] },
} as const;

/**
 * Issue 15: what the guard typed for a driver field at the last step (sent as grant-entry
 * `corrections`, recorded beside the read value) stands in the cited document's reading for the
 * entry's rules, so the spec §5 precedence picks the corrected value, never the misread one. A
 * correction for a document the entry does not cite changes nothing here: the entry's own
 * driver fields carry it.
 */
export function withTypedCorrections(
  readings: CitedReadings,
  corrections: readonly CorrectionInput[],
): CitedReadings {
  let result = readings;
  for (const correction of corrections) {
    if (!(correction.readingType in DRIVER_FIELDS)) continue;
    const { section, fields } = DRIVER_FIELDS[correction.readingType as keyof typeof DRIVER_FIELDS];
    const current = result[section];
    if (!current || !(fields as readonly string[]).includes(correction.field)) continue;
    result = {
      ...result,
      [section]: { ...current, [correction.field]: correction.typedValue || null },
    };
  }
  return result;
}
