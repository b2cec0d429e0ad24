import {
  CreatedIdSchema,
  type DriversLicenceBody,
  type IdentityDocumentBody,
  type PassportBody,
} from '@boomgate/contracts/documents';

import { request } from '@/lib/api-client';

export function saveIdentityDocument(body: IdentityDocumentBody) {
  return request('POST', '/api/identity-document', { schema: CreatedIdSchema, body });
}

export function saveDriversLicence(body: DriversLicenceBody) {
  return request('POST', '/api/drivers-licence', { schema: CreatedIdSchema, body });
}

export function savePassport(body: PassportBody) {
  return request('POST', '/api/passport', { schema: CreatedIdSchema, body });
}
