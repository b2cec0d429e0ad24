import { VisionInputError } from './errors';
import { DOCUMENT_TYPES, type DocumentType } from './types';

export function assertDocumentType(type: unknown): asserts type is DocumentType {
  if (typeof type !== 'string' || !(DOCUMENT_TYPES as readonly string[]).includes(type)) {
    throw new VisionInputError(
      'unknown_type',
      `Unknown document type "${String(type)}"; expected one of ${DOCUMENT_TYPES.join(', ')}.`,
    );
  }
}
