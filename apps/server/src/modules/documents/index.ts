/**
 * Documents: licence discs, identity documents, driver's licences, passports and weighbridge
 * tickets read at the gate, each with its image; entries refer to them by id.
 * Owns: licence_discs, identity_documents, drivers_licences, passports, weighbridge_tickets.
 */
import type { ImagesService } from '@/modules/images';

import { createDocumentsRepository } from './documents.repository';
import { documentsRoutes } from './documents.routes';
import { type DocumentsServiceDeps, createDocumentsService } from './documents.service';
import { createDocumentsPersonalData } from './documents.personal-data';

export type { DocumentsService } from './documents.service';

export function createDocumentsModule(
  deps: Omit<DocumentsServiceDeps, 'repository' | 'images'> & {
    images: DocumentsServiceDeps['images'] & Pick<ImagesService, 'urlFor'>;
  },
) {
  const service = createDocumentsService({ ...deps, repository: createDocumentsRepository() });
  // Personal data about drivers and image retention (the privacy module runs them).
  const personalData = createDocumentsPersonalData({ images: deps.images });
  return { service, routes: documentsRoutes(service, deps.images), personalData };
}

export { type CitedDocumentIds, type CitedReadings, citedReadings } from './document-readings';
export { type CitedDocument, citedDocuments } from './cited-documents';
