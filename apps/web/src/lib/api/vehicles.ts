import { VerifyVehicleSchema } from '@boomgate/contracts/approved-vehicles';

import { request } from '@/lib/api-client';

/** GET /api/verify-vehicle/{plate}: whether the plate is a registered, active vehicle (and its rig). */
export function verifyVehicle(plateNumber: string) {
  return request('GET', `/api/verify-vehicle/${encodeURIComponent(plateNumber)}`, {
    schema: VerifyVehicleSchema,
  });
}
