import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

import {
  BINARIZERS,
  CHARACTER_SETS,
  EAN_ADD_ON_SYMBOLS,
  TEXT_MODES,
  defaultReaderOptions,
  prepareZXingModule,
  readBarcodes as zxingReadBarcodes,
  type ReadResult,
  type ReaderOptions,
  type ZXingReaderOptions,
  type ZXingReadResult,
} from 'zxing-wasm/reader';

const require = createRequire(import.meta.url);

/** The parts of the Emscripten module used here (its `EmscriptenModule` base type is not installed). */
type ReaderModule = {
  _malloc(size: number): number;
  _free(pointer: number): void;
  HEAPU8: Uint8Array;
  readBarcodesFromPixmap(
    pointer: number,
    width: number,
    height: number,
    options: ZXingReaderOptions,
  ): { size(): number; get(i: number): ZXingReadResult | undefined };
};

let ready: Promise<ReaderModule> | null = null;

/** Path of the reader .wasm inside the installed zxing-wasm package (never fetched from a CDN). */
export function zxingWasmPath(): string {
  return require
    .resolve('zxing-wasm/reader')
    .replace(/dist[\\/]cjs[\\/]reader[\\/]index\.js$/, 'dist/reader/zxing_reader.wasm');
}

export function loadZxing(): Promise<ReaderModule> {
  ready ??= prepareZXingModule({
    overrides: { wasmBinary: readFileSync(zxingWasmPath()).buffer },
    fireImmediately: true,
  }) as Promise<unknown> as Promise<ReaderModule>;
  return ready;
}

export type GreyOrRgba = { data: Uint8ClampedArray; width: number; height: number };

export async function zxingRead(image: GreyOrRgba, options: ReaderOptions): Promise<ReadResult[]> {
  await loadZxing();
  return zxingReadBarcodes(
    {
      data: image.data,
      width: image.width,
      height: image.height,
      colorSpace: 'srgb',
    },
    options,
  );
}

/** zxing-wasm's own option encoding (enums as indices, formats as a comma list), for the pixmap call. */
function encodeOptions(options: ReaderOptions): ZXingReaderOptions {
  const o = { ...defaultReaderOptions, ...options };
  return {
    ...o,
    formats: o.formats.join(','),
    binarizer: BINARIZERS.indexOf(o.binarizer),
    eanAddOnSymbol: EAN_ADD_ON_SYMBOLS.indexOf(o.eanAddOnSymbol),
    textMode: TEXT_MODES.indexOf(o.textMode),
    characterSet: CHARACTER_SETS.indexOf(o.characterSet),
    tryCode39ExtendedMode: o.tryCode39ExtendedMode ?? true,
  };
}

/**
 * Reads an 8-bit grey image by handing its bytes straight to zxing-cpp's luminance entry point.
 * `readBarcodes` takes RGBA only and converts it back to luminance in JavaScript: on a 1080p frame
 * the RGBA copy plus that conversion cost ~35 ms per attempt (measured), more than a fast decode.
 * Formats must be zxing's canonical names (e.g. `PDF417`, `Code128`).
 */
export async function zxingReadGrey(
  image: { data: Uint8Array; width: number; height: number },
  options: ReaderOptions,
): Promise<ReadResult[]> {
  const zxing = await loadZxing();
  const size = image.width * image.height;
  if (image.data.length < size) throw new Error('zxingReadGrey needs one byte per pixel');
  const pointer = zxing._malloc(size);
  if (!pointer) throw new Error(`Failed to allocate ${size} bytes in WASM memory`);
  try {
    zxing.HEAPU8.set(image.data.subarray(0, size), pointer);
    const vector = zxing.readBarcodesFromPixmap(
      pointer,
      image.width,
      image.height,
      encodeOptions(options),
    );
    const results: ReadResult[] = [];
    for (let i = 0; i < vector.size(); i++) {
      const r = vector.get(i)!;
      results.push({ ...r, orientation: r.rotation } as unknown as ReadResult);
    }
    return results;
  } finally {
    zxing._free(pointer);
  }
}
