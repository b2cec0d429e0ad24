import { useQuery } from '@tanstack/react-query';

import { MAX_TRAILERS } from '@boomgate/contracts/approved-vehicles';
import { normalisePlate } from '@boomgate/contracts/plates';
import type { IncomingRequestEntry } from '@boomgate/contracts/webhooks';

import { readTrailerDisc } from '@/components/trailer-disc-reader';
import { type TrailerData, TrailersPanel } from '@/components/trailers-panel';
import { gateKeys } from '@/lib/api/query-keys';
import { verifyVehicle } from '@/lib/api/vehicles';

/**
 * Issue 21: the trailers a processed entry stored, each with the disc cited for it, so an edit
 * starts from the rig as completed (and sends it again) instead of dropping it.
 */
export function storedTrailers(entry: IncomingRequestEntry): TrailerData[] {
  return entry.trailers.map((trailer) => ({
    plateNumber: trailer.plateNumber,
    disc: trailer.licenceDiscId
      ? {
          recordId: trailer.licenceDiscId,
          reading: { discNumber: trailer.discNumber, dateOfExpiry: trailer.discExpiry },
        }
      : null,
  }));
}

/** The completion's trailer fields: the plates and the discs scanned for them, for the rig check. */
export function trailerFields(trailers: TrailerData[]) {
  return trailers.length > 0
    ? {
        trailerPlates: trailers.map((trailer) => trailer.plateNumber),
        trailerLicenceDiscIds: trailers.flatMap((trailer) =>
          trailer.disc ? [trailer.disc.recordId] : [],
        ),
      }
    : {};
}

/**
 * The Process Vehicle Entry dialog's trailers: Real Gate's panel, each trailer's licence disc
 * scanned (read and saved; its plate offered) or its plate typed. The truck-tractor's own plate
 * and a plate already listed are refused; the server checks the rig when the entry completes.
 */
export function ProcessEntryTrailers({
  trailers,
  truckPlate,
  canEdit,
  onChange,
}: {
  trailers: TrailerData[];
  truckPlate: string | null;
  canEdit: boolean;
  onChange: (trailers: TrailerData[]) => void;
}) {
  // The approved vehicle's registered trailers, as a hint (Real Gate shows them too); the server
  // checks the rig whatever this says. A plate not found, or a failed lookup, shows none.
  const plate = normalisePlate(truckPlate ?? '');
  const vehicle = useQuery({
    queryKey: gateKeys.verifyVehicle(plate),
    queryFn: () => verifyVehicle(plate),
    enabled: plate.length > 0,
  });
  return (
    <TrailersPanel
      trailers={trailers}
      registered={vehicle.data?.vehicle?.trailers?.map((trailer) => trailer.plateNumber) ?? []}
      canEdit={canEdit}
      readDisc={readTrailerDisc}
      onAdd={(trailer) => {
        if (
          trailers.length >= MAX_TRAILERS ||
          trailer.plateNumber === normalisePlate(truckPlate ?? '') ||
          trailers.some((known) => known.plateNumber === trailer.plateNumber)
        )
          return false;
        onChange([...trailers, trailer]);
        return true;
      }}
      onRemove={(index) => onChange(trailers.filter((_, at) => at !== index))}
    />
  );
}
