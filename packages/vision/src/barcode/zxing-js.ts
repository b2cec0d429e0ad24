/**
 * Second PDF417 engine: @zxing/library (the Java ZXing port, pure JS). Its detector copes with a
 * damaged or missing start pattern where zxing-cpp gives up, so it runs when zxing-wasm finds nothing.
 */
import {
  BarcodeFormat,
  BinaryBitmap,
  DecodeHintType,
  GlobalHistogramBinarizer,
  HybridBinarizer,
  PDF417Reader,
  RGBLuminanceSource,
} from '@zxing/library';

import type { RawImage } from '../image/decode-image';
import type { Barcode } from '../types';

const hints = new Map<DecodeHintType, unknown>([
  [DecodeHintType.TRY_HARDER, true],
  [DecodeHintType.POSSIBLE_FORMATS, [BarcodeFormat.PDF_417]],
  [DecodeHintType.CHARACTER_SET, 'ISO-8859-1'],
]);

export function readPdf417WithZxingJs(grey: RawImage): Barcode[] {
  if (grey.channels !== 1) throw new Error('readPdf417WithZxingJs needs a grey image');
  const luminance = new Uint8ClampedArray(grey.data.buffer, grey.data.byteOffset, grey.data.length);
  for (const Binarizer of [HybridBinarizer, GlobalHistogramBinarizer]) {
    try {
      const source = new RGBLuminanceSource(luminance, grey.width, grey.height);
      const result = new PDF417Reader().decode(new BinaryBitmap(new Binarizer(source)), hints);
      const text = result.getText();
      return [{ format: 'PDF417', text, bytes: Uint8Array.from(Buffer.from(text, 'latin1')) }];
    } catch {
      // NotFound / Checksum / Format: try the next binarizer.
    }
  }
  return [];
}
