import type { ReaderOptions } from 'zxing-wasm/reader';

import {
  type RawImage,
  type Rect,
  clampRect,
  fromRaw,
  toGrey,
  toRaw,
  toRgba,
} from '../image/decode-image';
import type { Barcode } from '../types';

import { estimateSkewDegrees, findBarcodeRegions } from './regions';
import { zxingRead, zxingReadGrey } from './zxing';
import { readPdf417WithZxingJs } from './zxing-js';

export type BarcodeFormatName = NonNullable<ReaderOptions['formats']>[number];

export const DOCUMENT_BARCODE_FORMATS: BarcodeFormatName[] = ['PDF417'];
export const ID_BOOK_BARCODE_FORMATS: BarcodeFormatName[] = ['Code39', 'Code128', 'ITF'];

export type BarcodeSearchOptions = {
  formats?: BarcodeFormatName[];
  /** Stop climbing the retry ladder after this long. */
  budgetMs?: number;
  /** Keep trying until a result satisfies this (e.g. a PDF417 of 720 bytes). */
  accept?: (barcodes: Barcode[]) => boolean;
};

function toBarcode(r: Awaited<ReturnType<typeof zxingRead>>[number]): Barcode {
  const bytes = new Uint8Array(r.bytes);
  const barcode: Barcode = { format: r.format, text: r.text, bytes };
  if (r.sequenceSize > 1) {
    barcode.sequence = { id: r.sequenceId, index: r.sequenceIndex, size: r.sequenceSize };
  }
  return barcode;
}

const FULL_EFFORT = {
  tryHarder: true,
  tryRotate: true,
  tryInvert: true,
  tryDownscale: true,
} as const;
/** zxing-cpp without its own retries: ~3x cheaper on a 1080p frame, reads a sharp upright symbol. */
const QUICK = { tryHarder: false, tryRotate: false, tryInvert: false, tryDownscale: true } as const;

async function readOnce(
  image: RawImage,
  formats: BarcodeFormatName[] | undefined,
  effort: typeof FULL_EFFORT | typeof QUICK = FULL_EFFORT,
) {
  const options = { formats: formats ?? [], ...effort, maxNumberOfSymbols: 16 };
  const results =
    image.channels === 1
      ? await zxingReadGrey(image, options)
      : await zxingRead({ data: toRgba(image), width: image.width, height: image.height }, options);
  return results.filter((r) => r.isValid).map(toBarcode);
}

async function pad(image: RawImage, fraction = 0.08): Promise<RawImage> {
  const border = Math.max(8, Math.round(Math.min(image.width, image.height) * fraction));
  return toRaw(
    fromRaw(image).extend({
      top: border,
      bottom: border,
      left: border,
      right: border,
      background: image.channels === 1 ? { r: 255, g: 255, b: 255 } : '#ffffff',
    }),
    true,
  );
}

async function scale(image: RawImage, factor: number): Promise<RawImage> {
  return toRaw(
    fromRaw(image).resize({
      width: Math.round(image.width * factor),
      height: Math.round(image.height * factor),
      kernel: factor > 1 ? 'cubic' : 'lanczos3',
    }),
    true,
  );
}

async function rotate(image: RawImage, degrees: number): Promise<RawImage> {
  return toRaw(fromRaw(image).rotate(degrees, { background: '#ffffff' }), true);
}

async function binarize(image: RawImage): Promise<RawImage> {
  return toRaw(fromRaw(image).normalise().sharpen().threshold(128), true);
}

async function crop(image: RawImage, rect: Rect): Promise<RawImage> {
  return toRaw(fromRaw(image).extract(clampRect(rect, image)), true);
}

/** Several symbols of one Macro PDF417 message (structured append) → one assembled message. */
export function assembleSequences(barcodes: Barcode[]): Barcode[] {
  const groups = new Map<string, Barcode[]>();
  for (const b of barcodes) {
    if (!b.sequence || b.isAssembled) continue;
    const key = `${b.format}:${b.sequence.id}`;
    const list = groups.get(key) ?? [];
    if (!list.some((x) => x.sequence!.index === b.sequence!.index)) list.push(b);
    groups.set(key, list);
  }
  const assembled: Barcode[] = [];
  for (const list of groups.values()) {
    const size = list[0]!.sequence!.size;
    if (list.length !== size) continue;
    list.sort((a, b) => a.sequence!.index - b.sequence!.index);
    const total = list.reduce((n, b) => n + b.bytes.length, 0);
    const bytes = new Uint8Array(total);
    let offset = 0;
    for (const b of list) {
      bytes.set(b.bytes, offset);
      offset += b.bytes.length;
    }
    assembled.push({
      format: list[0]!.format,
      text: list.map((b) => b.text).join(''),
      bytes,
      sequence: { id: list[0]!.sequence!.id, index: -1, size },
      isAssembled: true,
    });
  }
  return assembled;
}

function dedupe(barcodes: Barcode[]): Barcode[] {
  const seen = new Set<string>();
  return barcodes.filter((b) => {
    const key = `${b.format}:${b.sequence?.index ?? ''}:${Buffer.from(b.bytes).toString('base64')}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

type Step = () => Promise<RawImage | null> | RawImage | null;

/**
 * Reads barcodes with a retry ladder, cheapest first: the grey frame with zxing's quick settings, then
 * with its full effort (rotations, inversion, harder scan), with a quiet zone added, straightened by
 * the measured bar angle, upscaled, rotated and binarised, then the same on crops of barcode-like
 * regions. Region finding and skew estimation run only once the first rungs have failed. Stops at
 * the first rung that gives an acceptable result, or when the time budget runs out.
 */
export async function findBarcodes(
  image: RawImage,
  { formats, budgetMs = 4000, accept = (b) => b.length > 0 }: BarcodeSearchOptions = {},
): Promise<Barcode[]> {
  const started = performance.now();
  const grey = toGrey(image);
  const found: Barcode[] = [];
  const done = () => {
    const all = dedupe([...assembleSequences(found), ...found]);
    return accept(all) ? all : null;
  };
  const overBudget = () => performance.now() - started > budgetMs;

  const wantsPdf417 = !formats || formats.length === 0 || formats.includes('PDF417');
  const attempt = async (make: Step, useSecondEngine = false) => {
    if (overBudget()) return null;
    const img = await make();
    if (!img) return null;
    found.push(...(await readOnce(img, formats)));
    if (useSecondEngine && wantsPdf417 && !found.length) found.push(...readPdf417WithZxingJs(img));
    return done();
  };

  const ladder = (base: RawImage, skewOf: () => number): Step[] => {
    const small = Math.max(base.width, base.height) < 1400;
    const steps: Step[] = [() => base, () => pad(base)];
    // Dense symbols tolerate only ~1° of skew: straighten by the measured bar angle first.
    const straighten = (sign: number) => async () => {
      const skew = skewOf();
      return Math.abs(skew) >= 0.7 ? rotate(await pad(base), sign * skew) : null;
    };
    steps.push(straighten(-1), straighten(1));
    steps.push(
      async () => rotate(await pad(base), -3),
      async () => rotate(await pad(base), 3),
    );
    if (small) steps.push(async () => pad(await scale(base, 2)));
    else steps.push(async () => pad(await scale(base, 0.5)));
    for (const deg of [-7, 7, -12, 12]) steps.push(async () => rotate(await pad(base), deg));
    // Glare and curvature (a disc behind a windscreen): a 150 % upscale has rescued such photos.
    if (Math.max(base.width, base.height) < 2200)
      steps.push(async () => pad(await scale(base, 1.5)));
    steps.push(async () => binarize(await pad(base)));
    if (small) steps.push(async () => binarize(await pad(await scale(base, 2))));
    return steps;
  };

  // Rung 0: the frame as it is, zxing's quick settings (most camera reads end here).
  found.push(...(await readOnce(grey, formats, QUICK)));
  const quick = done();
  if (quick) return quick;

  let regions: Rect[] | null = null;
  const regionsOf = () => (regions ??= findBarcodeRegions(grey).slice(0, 3));
  let skew: number | null = null;
  const steps = ladder(grey, () => (skew ??= estimateSkewDegrees(grey, regionsOf()[0])));
  // The slower JS engine (~1 s on a 1080p frame) tries the padded image of small inputs here, and
  // the padded region crops below.
  const isSmall = Math.max(grey.width, grey.height) < 1400;
  for (const [i, step] of steps.entries()) {
    const result = await attempt(step, isSmall && i === 1);
    if (result) return result;
  }

  // Crops around regions dense in edges (a barcode in a busy photo).
  for (const region of regionsOf()) {
    const cropped = await crop(grey, region);
    let cropSkew: number | null = null;
    const cropSteps = ladder(cropped, () => (cropSkew ??= estimateSkewDegrees(cropped)));
    for (const [i, step] of cropSteps.entries()) {
      const result = await attempt(step, i === 1);
      if (result) return result;
    }
  }
  return dedupe([...assembleSequences(found), ...found]);
}
