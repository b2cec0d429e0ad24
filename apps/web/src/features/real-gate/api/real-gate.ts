import { VerifyVehicleSchema } from '@boomgate/contracts/approved-vehicles';
import {
  CreatedIdSchema,
  type DriversLicenceBody,
  type IdentityDocumentBody,
  type PassportBody,
} from '@boomgate/contracts/documents';

import { request } from '@/lib/api-client';

/** GET /api/verify-vehicle/{plate}: whether the plate is a registered, active vehicle. */
export function verifyVehicle(plateNumber: string) {
  return request('GET', `/api/verify-vehicle/${encodeURIComponent(plateNumber)}`, {
    schema: VerifyVehicleSchema,
  });
}

export function saveIdentityDocument(body: IdentityDocumentBody) {
  return request('POST', '/api/identity-document', { schema: CreatedIdSchema, body });
}

export function saveDriversLicence(body: DriversLicenceBody) {
  return request('POST', '/api/drivers-licence', { schema: CreatedIdSchema, body });
}

export function savePassport(body: PassportBody) {
  return request('POST', '/api/passport', { schema: CreatedIdSchema, body });
}
