/**
 * Documents: licence discs, identity documents, driver's licences, passports and weighbridge
 * tickets read at the gate, each with its image; entries refer to them by id.
 * Owns: licence_discs, identity_documents, drivers_licences, passports, weighbridge_tickets.
 */
import type { ImagesService } from '@/modules/images';
import type { ColumnSealer } from '@/platform/sealing';

import { DOCUMENT_SEALED_COLUMNS, createDocumentSealing } from './document-sealing';
import { createDocumentsRepository } from './documents.repository';
import { documentsRoutes } from './documents.routes';
import { type DocumentsServiceDeps, createDocumentsService } from './documents.service';
import { createDocumentsPersonalData } from './documents.personal-data';

export type { DocumentsService } from './documents.service';

export function createDocumentsModule(
  deps: Omit<DocumentsServiceDeps, 'repository' | 'images' | 'sealing'> & {
    images: DocumentsServiceDeps['images'] & Pick<ImagesService, 'urlFor'>;
    /** The tenant keyring: numbers and personal documents' fields are sealed (issue 26). */
    sealer: ColumnSealer;
  },
) {
  const sealing = createDocumentSealing(deps.sealer);
  const service = createDocumentsService({
    ...deps,
    repository: createDocumentsRepository(),
    sealing,
  });
  // Personal data about drivers and image retention (the privacy module runs them).
  const personalData = createDocumentsPersonalData({ images: deps.images, sealing });
  return {
    service,
    routes: documentsRoutes(service, deps.images),
    personalData,
    /** What the keys module's jobs seal (documents stored before issue 26) and re-seal. */
    sealedColumns: DOCUMENT_SEALED_COLUMNS,
  };
}

export {
  type CitedDocumentIds,
  type CitedReadings,
  type CitedReadingsReader,
  citedReadings,
} from './document-readings';
export { type CitedDocument, citedDocuments } from './cited-documents';
export { type FieldsOpener } from './document-sealing';
