/**
 * tesseract.js with the traineddata of @tesseract.js-data/eng, read from node_modules (langPath) and
 * never cached to disk. Two configurations, created lazily, once per thread:
 * - `document`: LSTM (4.0.0_best_int) for printed documents and tickets;
 * - `mrz`: the legacy engine (4.0.0 data, OEM 0), which reads `<` fillers far better than LSTM.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

import { OEM, PSM, createWorker, type Worker } from 'tesseract.js';

import type { OcrLine } from './ocr-line';

const require = createRequire(import.meta.url);

export type TesseractMode = 'document' | 'mrz' | 'mrz-combined';

function langPath(variant: '4.0.0' | '4.0.0_best_int') {
  return join(dirname(require.resolve('@tesseract.js-data/eng')), variant);
}

const workers = new Map<TesseractMode, Promise<Worker>>();

export function loadTesseract(mode: TesseractMode): Promise<Worker> {
  let worker = workers.get(mode);
  if (!worker) {
    const isLegacy = mode !== 'document';
    worker = createWorker(
      'eng',
      mode === 'mrz'
        ? OEM.TESSERACT_ONLY
        : mode === 'mrz-combined'
          ? OEM.TESSERACT_LSTM_COMBINED
          : OEM.LSTM_ONLY,
      {
        langPath: langPath(isLegacy ? '4.0.0' : '4.0.0_best_int'),
        cacheMethod: 'none',
        gzip: true,
        legacyCore: isLegacy,
        legacyLang: isLegacy,
      },
    );
    workers.set(mode, worker);
  }
  return worker;
}

export async function closeTesseract(): Promise<void> {
  const all = [...workers.values()];
  workers.clear();
  await Promise.all(all.map(async (w) => (await w).terminate()));
}

export type TesseractOptions = {
  mode: TesseractMode;
  psm?: PSM;
  whitelist?: string;
};

/** OCR of an encoded image (PNG/JPEG bytes). Returns lines with boxes and 0..1 confidence. */
export async function ocrWithTesseract(
  image: Buffer,
  { mode, psm = PSM.AUTO, whitelist = '' }: TesseractOptions,
): Promise<{ text: string; lines: OcrLine[] }> {
  const worker = await loadTesseract(mode);
  await worker.setParameters({
    tessedit_pageseg_mode: psm,
    tessedit_char_whitelist: whitelist,
    preserve_interword_spaces: '1',
    user_defined_dpi: '300',
    // The legacy engine adapts its classifier to every page a worker reads, so a reading depended on
    // the documents read before it (the same MRZ specimen read differently on a first and a second
    // pass in one process) and the adaptation cost CPU: off, every read stands on its own (11 MRZ
    // specimens: CPU median 963 -> 879 ms, slowest 2784 -> 1947 ms, same lines; docs/vision/accuracy.md).
    classify_enable_learning: '0',
  });
  const { data } = await worker.recognize(image, {}, { text: true, blocks: true });
  const lines: OcrLine[] = [];
  for (const block of data.blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        const text = line.text.replace(/\n$/, '').trim();
        if (!text) continue;
        lines.push({
          text,
          confidence: line.confidence / 100,
          box: {
            x: line.bbox.x0,
            y: line.bbox.y0,
            width: line.bbox.x1 - line.bbox.x0,
            height: line.bbox.y1 - line.bbox.y0,
          },
        });
      }
    }
  }
  return { text: data.text, lines };
}

export { PSM };
