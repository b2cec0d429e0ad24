import type { CorrectionInputSchema } from '@boomgate/contracts/corrections';
import type { EntryWarning } from '@boomgate/contracts/entry-checks';
import { normalisePlate } from '@boomgate/contracts/plates';
import type { z } from 'zod';

import { AppError } from '@/platform/errors';

type CorrectionInput = z.output<typeof CorrectionInputSchema>;

/** The cited plate capture as the server holds it (its stored reading). */
export type PlateCapture = {
  type: string;
  reading: {
    fields: Record<string, { value: unknown } | undefined>;
    uncertain: readonly string[];
  } | null;
} | null;

/** Issue 15: an uncertain plate read must be confirmed or corrected before a grant. */
export const UNCONFIRMED_PLATE_MESSAGE =
  'The plate was read with uncertainty: confirm or correct it before the entry is granted.';

/**
 * Issue 15: what the entry's plate rests on. The plate read is the capture's (server-held), never
 * the client's `extractedPlate`; a plate the guard typed, confirmed or corrected travels as a
 * `plate.plateNumber` correction, which must be the entry's plate (the server decides on it).
 * An automated-gate grant on an uncertain read nobody confirmed is refused as bad input; a plate
 * that differs from the read without a correction, or an unconfirmed uncertain read at the real
 * gate (which checks by eye), is kept as a warning on the entry.
 *
 * With no plate capture behind it (none cited, an image uploaded inline, or a capture whose read
 * found no plate) and no ANPR lane read the server received itself, the entry has no plate reading: `extractedPlate` is null, never the client's
 * claim. A claim the client did send is kept as a `plate_read_unbacked` note saying nothing backs it.
 */
export function plateProvenance(input: {
  plateNumber: string;
  isAutomatedGrant: boolean;
  capture: PlateCapture;
  clientExtractedPlate: string | null;
  /** An ANPR lane camera's read, received by the server from the camera itself (issue 16). */
  laneRead?: string | null;
  corrections: readonly CorrectionInput[];
}): { extractedPlate: string | null; warnings: EntryWarning[] } {
  const correction = input.corrections.find(
    (item) => item.readingType === 'plate' && item.field === 'plateNumber',
  );
  if (correction && normalisePlate(correction.typedValue) !== input.plateNumber)
    throw new AppError(
      'INVALID',
      'corrections: the plate the guard typed must be the entry\u2019s plateNumber.',
    );
  const reading = input.capture?.type === 'plate' ? input.capture.reading : null;
  const read = reading?.fields.plateNumber?.value;
  if (typeof read !== 'string' || read.trim() === '') {
    if (input.laneRead) return { extractedPlate: input.laneRead, warnings: [] };
    return { extractedPlate: null, warnings: unbackedClaim(input.clientExtractedPlate) };
  }

  const isUncertain = reading?.uncertain.includes('plateNumber') ?? false;
  const warnings: EntryWarning[] = [];
  if (!correction && isUncertain) {
    if (input.isAutomatedGrant) throw new AppError('INVALID', UNCONFIRMED_PLATE_MESSAGE);
    warnings.push({
      code: 'plate_unconfirmed',
      severity: 'warning',
      message: `The plate was read as ${read} with uncertainty and nobody confirmed it.`,
      fields: ['plateNumber'],
    });
  } else if (!correction && normalisePlate(read) !== input.plateNumber) {
    warnings.push({
      code: 'plate_unconfirmed',
      severity: 'warning',
      message: `The camera read ${read}; the entry's plate ${input.plateNumber} was not sent as a correction.`,
      fields: ['plateNumber'],
    });
  }
  return { extractedPlate: read, warnings };
}

/** Issue 15: the client's `extractedPlate` with no plate capture read behind it, kept as a note. */
function unbackedClaim(claim: string | null): EntryWarning[] {
  const text = claim?.trim();
  if (!text) return [];
  return [
    {
      code: 'plate_read_unbacked',
      severity: 'info',
      message: `The device reported the plate read as "${text}", but no plate capture on the server backs it: it is not recorded as a reading.`,
      fields: ['extractedPlate'],
    },
  ];
}
