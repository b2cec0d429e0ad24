import { PlateLookupSchema } from '@boomgate/contracts/approved-vehicles';
import {
  type FaceComparisonRequest,
  FaceComparisonResponseSchema,
} from '@boomgate/contracts/faces';

import { request } from '@/lib/api-client';

/** GET /api/approved-vehicles/plate/{plate}: 404 when the plate is not registered. */
export function lookupPlate(plateNumber: string, signal?: AbortSignal) {
  return request('GET', `/api/approved-vehicles/plate/${encodeURIComponent(plateNumber)}`, {
    schema: PlateLookupSchema,
    signal,
  });
}

/** POST /api/face-comparison: the live face against the vehicle's enrolled driver photo. */
export function compareFaces(body: FaceComparisonRequest, signal?: AbortSignal) {
  return request('POST', '/api/face-comparison', {
    schema: FaceComparisonResponseSchema,
    body,
    signal,
  });
}
