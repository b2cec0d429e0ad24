import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

import {
  prepareZXingModule,
  readBarcodes as zxingReadBarcodes,
  type ReadResult,
  type ReaderOptions,
} from 'zxing-wasm/reader';

const require = createRequire(import.meta.url);

let ready: Promise<unknown> | null = null;

/** Path of the reader .wasm inside the installed zxing-wasm package (never fetched from a CDN). */
export function zxingWasmPath(): string {
  return require
    .resolve('zxing-wasm/reader')
    .replace(/dist[\\/]cjs[\\/]reader[\\/]index\.js$/, 'dist/reader/zxing_reader.wasm');
}

export function loadZxing(): Promise<unknown> {
  ready ??= prepareZXingModule({
    overrides: { wasmBinary: readFileSync(zxingWasmPath()).buffer },
    fireImmediately: true,
  });
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
