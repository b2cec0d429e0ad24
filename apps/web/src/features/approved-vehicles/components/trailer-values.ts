import {
  type ApprovedVehicle,
  type CreateApprovedVehicleBody,
  MAX_TRAILERS,
  TrailersSchema,
} from '@boomgate/contracts/approved-vehicles';

import { normalisePlate } from '@/lib/plates';

export { MAX_TRAILERS };

/** A trailer as typed in a form: its plate, licence disc number and disc expiry (YYYY-MM-DD). */
export type TrailerValues = { plateNumber: string; discNumber: string; discExpiry: string };

export const emptyTrailer = (): TrailerValues => ({
  plateNumber: '',
  discNumber: '',
  discExpiry: '',
});

/** A vehicle's stored trailers as form values (an edit starts from them). */
export function trailerValuesOf(vehicle: Pick<ApprovedVehicle, 'trailers'>): TrailerValues[] {
  return (vehicle.trailers ?? []).map((trailer) => ({
    plateNumber: trailer.plateNumber,
    discNumber: trailer.discNumber ?? '',
    discExpiry: trailer.discExpiry ?? '',
  }));
}

export type TrailersInput = NonNullable<CreateApprovedVehicleBody['trailers']>;

/**
 * The trailers as sent: a row left wholly blank is dropped; a disc without a plate is a problem
 * (`needsPlate`, 1-based trailer number); otherwise the contract's TrailersSchema decides (at most
 * two, each its own plate, a valid plate and date), its message as `detail`.
 */
export function toTrailers(
  values: readonly TrailerValues[],
): { trailers: TrailersInput } | { problem: { needsPlate?: number; detail?: string } } {
  const rows = values
    .map((row, index) => ({
      index,
      plateNumber: normalisePlate(row.plateNumber.trim()),
      discNumber: row.discNumber.trim(),
      discExpiry: row.discExpiry.trim(),
    }))
    .filter((row) => row.plateNumber !== '' || row.discNumber !== '' || row.discExpiry !== '');
  const withoutPlate = rows.find((row) => row.plateNumber === '');
  if (withoutPlate) return { problem: { needsPlate: withoutPlate.index + 1 } };
  const trailers = rows.map((row) => ({
    plateNumber: row.plateNumber,
    discNumber: row.discNumber || null,
    discExpiry: row.discExpiry || null,
  }));
  const checked = TrailersSchema.safeParse(trailers);
  if (!checked.success) return { problem: { detail: checked.error.issues[0]?.message ?? '' } };
  return { trailers };
}
