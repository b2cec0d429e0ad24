/**
 * @boomgate/vision: image bytes in, typed fields out (plates, licence discs, driving licences, ID
 * documents, passports, weighbridge tickets, barcodes). Knows nothing of tenants, SQL or HTTP.
 */
export type {
  AiMode,
  AiProviderOptions,
  Barcode,
  DocumentType,
  ReadAlternative,
  ReadFailure,
  ReadResult,
  ReadSource,
  ReadSuccess,
} from './types';
export { DOCUMENT_TYPES } from './types';
export { VisionInputError, isVisionInputError, type VisionInputErrorKind } from './errors';
export { MAX_IMAGE_BYTES, MAX_IMAGE_PIXELS } from './image/decode-image';

export { parseDisc, type LicenceDisc } from './documents/disc';
export { extractWeighbridgeTicket, type WeighbridgeTicket } from './documents/weighbridge';
export { WEIGHBRIDGE_MASS_TOLERANCE_KG } from './documents/mass-tolerance';
export {
  decryptSadl,
  parseSadlRecord,
  readSadl,
  SadlError,
  type SadlRecord,
} from './documents/sadl';
export { PUBLISHED_SADL_KEYS, type SadlKeys } from './documents/sadl-keys';
export {
  checkSaIdNumber,
  extractSaIdNumber,
  isLuhnValid,
  parseIdBookBarcode,
  parseSmartId,
  type SmartIdCard,
} from './documents/sa-id';
export { parseMrz, extractMrzLines, mrzCheckDigit, type MrzReading } from './documents/mrz';
// The one plate normaliser and display formatter live in packages/contracts (spec §5).
export { formatPlate, normalisePlate } from '@boomgate/contracts/plates';
export { toReading } from './reading';
export { matchPlatePatterns, rankPlateCandidates, type PlateCandidate } from './documents/plate';
export {
  createVisionEngine,
  type VisionEngine,
  type VisionEngineOptions,
  type ReadOptions,
} from './engine';
