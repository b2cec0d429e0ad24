/**
 * Images: every uploaded photo (plates, faces, documents, tickets) is checked, re-encoded without
 * metadata and stored by key; served only to signed-in users of the same tenant. Owns no table.
 */
import type { AuditService } from '@/modules/audit';
import type { Database } from '@/platform/db';
import type { ObjectStorage } from '@/platform/storage';

import { imagesRoutes } from './images.routes';
import { createImagesService } from './images.service';

export { CAPTURE_KIND, isCaptureKey } from './images.service';
export type { ImageKind, ImagesService } from './images.service';

export function createImagesModule(deps: {
  storage: ObjectStorage;
  database: Pick<Database, 'withTenant'>;
  audit: Pick<AuditService, 'record'>;
}) {
  const service = createImagesService(deps);
  return { service, routes: imagesRoutes(service) };
}
