import { VisionInputError } from '../errors';
import type { VisionEngine } from '../engine';
import { assertImageBytes } from '../image/decode-image';
import type { Barcode, DocumentType, ReadResult } from '../types';

type Reader = (type: DocumentType, image: Uint8Array) => ReadResult | Promise<ReadResult>;

/**
 * A stand-in engine for server tests about something else (the auto-gate flow, say). It checks input
 * bytes like the real one (same VisionInputError kinds for empty/too large/not an image) and answers
 * with canned results.
 */
export function createFakeVisionEngine({
  read = (type) => ({ ok: true, type, fields: {}, text: '', source: 'ocr', confidence: 1 }),
  barcodes = [],
}: { read?: Reader; barcodes?: Barcode[] } = {}): Pick<
  VisionEngine,
  'read' | 'readBarcodes' | 'close'
> & {
  calls: Array<{ type: DocumentType; size: number }>;
} {
  const calls: Array<{ type: DocumentType; size: number }> = [];
  return {
    calls,
    async read(type, image) {
      assertImageBytes(image);
      if (!['plate', 'disk', 'license', 'id', 'passport', 'weighbridge'].includes(type)) {
        throw new VisionInputError('unknown_type', `Unknown document type "${type}".`);
      }
      calls.push({ type, size: image.length });
      return read(type, image);
    },
    async readBarcodes(image) {
      assertImageBytes(image);
      return barcodes;
    },
    async close() {},
  };
}
