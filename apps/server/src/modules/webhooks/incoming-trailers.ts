import { normalisePlate } from '@boomgate/contracts/plates';
import type { IncomingTrailer } from '@boomgate/contracts/webhooks';

/** A cited trailer disc as read: its id, the plate it names ("Licence no."), number and expiry. */
export type CitedTrailerDisc = {
  id: string;
  plate: string | null;
  discNumber: string | null;
  dateOfExpiry: string | null;
};

/**
 * Issue 21, pure: each trailer plate of a completion with the disc cited for it (the disc whose
 * plate is that trailer's), in the plates' order; nulls for a trailer with no disc. The rig check
 * refuses a disc for a trailer not presented, so every stored disc finds its trailer.
 */
export function pairTrailers(
  plates: readonly string[],
  discs: readonly CitedTrailerDisc[],
): IncomingTrailer[] {
  return plates.map((plateNumber) => {
    const plate = normalisePlate(plateNumber);
    const disc = discs.find(
      (cited) => cited.plate !== null && normalisePlate(cited.plate) === plate,
    );
    return {
      plateNumber,
      licenceDiscId: disc?.id ?? null,
      discNumber: disc?.discNumber ?? null,
      discExpiry: disc?.dateOfExpiry ?? null,
    };
  });
}
