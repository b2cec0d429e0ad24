/**
 * Face engine (Node only): detection, 68 landmarks and a 128-d descriptor with @vladmandic/face-api on
 * the TensorFlow.js wasm backend, plus Human's passive anti-spoofing models. Everything loads from
 * node_modules; nothing is downloaded. See docs/adr/0002-face-engine.md.
 *
 * Models load once per process (per worker thread) and calls are serialised: tfjs is single-threaded
 * per thread anyway, and one call at a time bounds memory.
 */

import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import type * as TF from '@tensorflow/tfjs';
import type * as FaceApi from '@vladmandic/face-api';
import sharp from 'sharp';

import { FaceError } from './errors';
import { type RgbImage, decodeForFaces, greyCrop } from './image';
import { type Point, estimateRollDeg, estimateYawDeg } from './landmarks';
import { type DescriptorComparison, assertDescriptor, compareDescriptors } from './match-score';
import {
  type FaceBox,
  type FaceQuality,
  type QualityThresholds,
  DEFAULT_QUALITY_THRESHOLDS,
  assessFaceQuality,
  countCompetingFaces,
  meanOf,
  sharpness,
} from './quality';

export { compareDescriptors } from './match-score';
export type { DescriptorComparison } from './match-score';

const require = createRequire(import.meta.url);

type FaceApiModule = typeof FaceApi;
type TfModule = typeof TF;

type Models = {
  tf: TfModule;
  faceapi: FaceApiModule;
  antispoof: TF.GraphModel;
  liveness: TF.GraphModel;
  /** Wall time of the first load, ms. */
  loadMs: number;
};

export type FaceEngineOptions = {
  /** Folder with face-api's weights. Default: node_modules/@vladmandic/face-api/model. */
  faceApiModelDir?: string;
  /** Folder with Human's antispoof/liveness graph models. Default: node_modules/@vladmandic/human/models. */
  humanModelDir?: string;
  /** Folder with the tfjs wasm binaries. Default: node_modules/@tensorflow/tfjs-backend-wasm/dist. */
  wasmDir?: string;
};

/** Finds an installed package's folder without going through its `exports` map (Human's is broken). */
function packageDir(name: string): string {
  for (const base of require.resolve.paths(name) ?? []) {
    const dir = path.join(base, name);
    if (existsSync(path.join(dir, 'package.json'))) return dir;
  }
  throw new Error(`Package ${name} is not installed`);
}

/** Reads a tfjs graph model (model.json + .bin shards) from disk: no fetch(), no file:// URLs. */
async function loadGraphModel(tf: TfModule, file: string): Promise<TF.GraphModel> {
  const json = JSON.parse(readFileSync(file, 'utf8')) as {
    modelTopology: object;
    format?: string;
    generatedBy?: string;
    convertedBy?: string;
    signature?: object;
    userDefinedMetadata?: { [key: string]: object };
    weightsManifest: { paths: string[]; weights: TF.io.WeightsManifestEntry[] }[];
  };
  const weightSpecs: TF.io.WeightsManifestEntry[] = [];
  const shards: Buffer[] = [];
  for (const group of json.weightsManifest) {
    weightSpecs.push(...group.weights);
    for (const p of group.paths) shards.push(readFileSync(path.join(path.dirname(file), p)));
  }
  const all = Buffer.concat(shards);
  const artifacts: TF.io.ModelArtifacts = {
    modelTopology: json.modelTopology,
    weightSpecs,
    weightData: all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength),
    ...(json.format ? { format: json.format } : {}),
    ...(json.generatedBy ? { generatedBy: json.generatedBy } : {}),
    ...(json.convertedBy ? { convertedBy: json.convertedBy } : {}),
    ...(json.signature ? { signature: json.signature } : {}),
    ...(json.userDefinedMetadata ? { userDefinedMetadata: json.userDefinedMetadata } : {}),
  };
  return tf.loadGraphModel(tf.io.fromMemory(artifacts));
}

async function load(options: FaceEngineOptions): Promise<Models> {
  const started = performance.now();
  // CommonJS builds on purpose: face-api's node-wasm build require()s '@tensorflow/tfjs', and we must
  // configure that same tfjs instance (an ESM import could load a second copy with its own engine).
  const tf = require('@tensorflow/tfjs') as TfModule;
  const wasm = require('@tensorflow/tfjs-backend-wasm') as {
    setWasmPaths: (prefix: string) => void;
  };
  const faceapi = require('@vladmandic/face-api/dist/face-api.node-wasm.js') as FaceApiModule;

  const wasmDir = options.wasmDir ?? path.join(packageDir('@tensorflow/tfjs-backend-wasm'), 'dist');
  wasm.setWasmPaths(wasmDir.endsWith(path.sep) ? wasmDir : wasmDir + path.sep);
  if (!(await tf.setBackend('wasm'))) throw new Error('The tfjs wasm backend failed to start');
  await tf.ready();

  const modelDir =
    options.faceApiModelDir ?? path.join(packageDir('@vladmandic/face-api'), 'model');
  await Promise.all([
    faceapi.nets.tinyFaceDetector.loadFromDisk(modelDir),
    faceapi.nets.ssdMobilenetv1.loadFromDisk(modelDir),
    faceapi.nets.faceLandmark68Net.loadFromDisk(modelDir),
    faceapi.nets.faceRecognitionNet.loadFromDisk(modelDir),
  ]);
  const humanDir = options.humanModelDir ?? path.join(packageDir('@vladmandic/human'), 'models');
  const [antispoof, liveness] = await Promise.all([
    loadGraphModel(tf, path.join(humanDir, 'antispoof.json')),
    loadGraphModel(tf, path.join(humanDir, 'liveness.json')),
  ]);
  return { tf, faceapi, antispoof, liveness, loadMs: performance.now() - started };
}

let loading: Promise<Models> | undefined;

/** Loads the models once per process; later calls return the same promise. */
export function loadFaceModels(options: FaceEngineOptions = {}): Promise<{ loadMs: number }> {
  return models(options).then((m) => ({ loadMs: m.loadMs }));
}

function models(options: FaceEngineOptions = {}): Promise<Models> {
  loading ??= load(options).catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

let queue: Promise<unknown> = Promise.resolve();

/** Runs engine calls one at a time. */
function serialised<T>(fn: () => Promise<T>): Promise<T> {
  const run = queue.then(fn, fn);
  queue = run.catch(() => undefined);
  return run;
}

// ---------------------------------------------------------------------------------------------------
// Detection

/**
 * Detection passes, tried in order until one finds a face. TinyFaceDetector at 512 px is fast (~0.1 s
 * on one core) and finds the faces in the face-api group photos; the padded passes handle tight
 * face crops (ID photos, pre-cropped portraits) whose face fills the frame, which both detectors miss
 * because they were trained on faces with context around them. SSD MobileNet (~0.4 s) is the recall
 * fallback.
 */
const PASSES: readonly { detector: 'tiny' | 'ssd'; pad: number }[] = [
  { detector: 'tiny', pad: 0 },
  { detector: 'tiny', pad: 0.5 },
  { detector: 'ssd', pad: 0 },
  { detector: 'ssd', pad: 1 },
];
const TINY_INPUT_SIZE = 512;
const MIN_DETECTION_SCORE = 0.5;
const PAD_GREY = { r: 128, g: 128, b: 128 };

type PassInput = {
  tensor: TF.Tensor3D;
  /** pass pixel = (analysed pixel + pad) * scale */
  pad: number;
  scale: number;
};

type RawFace = {
  /** In analysed-image pixels. */
  box: FaceBox;
  score: number;
  landmarks: Point[];
  /** face-api's landmark object, in pass pixels (for alignment). */
  result: FaceApi.WithFaceLandmarks<{ detection: FaceApi.FaceDetection }, FaceApi.FaceLandmarks68>;
};

async function passInput(m: Models, image: RgbImage, padFraction: number): Promise<PassInput> {
  if (padFraction === 0) {
    const tensor = m.tf.tensor3d(
      Int32Array.from(image.data),
      [image.height, image.width, 3],
      'int32',
    );
    return { tensor, pad: 0, scale: 1 };
  }
  const pad = Math.round(Math.max(image.width, image.height) * padFraction);
  const { data, info } = await sharp(image.data, {
    raw: { width: image.width, height: image.height, channels: 3 },
  })
    .extend({ top: pad, bottom: pad, left: pad, right: pad, background: PAD_GREY })
    .resize({ width: 1024, height: 1024, fit: 'inside', withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const tensor = m.tf.tensor3d(Int32Array.from(data), [info.height, info.width, 3], 'int32');
  return { tensor, pad, scale: info.width / (image.width + 2 * pad) };
}

async function detectInPass(
  m: Models,
  input: PassInput,
  detector: 'tiny' | 'ssd',
): Promise<RawFace[]> {
  const { faceapi } = m;
  const options =
    detector === 'tiny'
      ? new faceapi.TinyFaceDetectorOptions({
          inputSize: TINY_INPUT_SIZE,
          scoreThreshold: MIN_DETECTION_SCORE,
        })
      : new faceapi.SsdMobilenetv1Options({ minConfidence: MIN_DETECTION_SCORE, maxResults: 20 });
  const results = await faceapi.detectAllFaces(input.tensor, options).withFaceLandmarks();
  const toImage = (p: { x: number; y: number }): Point => ({
    x: p.x / input.scale - input.pad,
    y: p.y / input.scale - input.pad,
  });
  return results
    .map((r) => {
      const b = r.detection.box;
      const tl = toImage({ x: b.x, y: b.y });
      return {
        box: { x: tl.x, y: tl.y, width: b.width / input.scale, height: b.height / input.scale },
        score: r.detection.score,
        landmarks: r.landmarks.positions.map(toImage),
        result: r,
      };
    })
    .sort((a, b) => b.box.width * b.box.height - a.box.width * a.box.height);
}

type Detected = { faces: RawFace[]; input: PassInput | null; pass: number };

/** Runs the passes until one finds a face. The caller disposes `input.tensor`. */
async function detectAll(m: Models, image: RgbImage): Promise<Detected> {
  for (let i = 0; i < PASSES.length; i++) {
    const pass = PASSES[i]!;
    const input = await passInput(m, image, pass.pad);
    let faces: RawFace[];
    try {
      faces = await detectInPass(m, input, pass.detector);
    } catch (error) {
      input.tensor.dispose();
      throw error;
    }
    if (faces.length > 0) return { faces, input, pass: i };
    input.tensor.dispose();
  }
  return { faces: [], input: null, pass: -1 };
}

// ---------------------------------------------------------------------------------------------------
// Public API

export type FaceDetection = {
  /** In the original (EXIF-rotated) image's pixels. */
  box: FaceBox;
  /** Detector confidence 0..1. */
  score: number;
  /** 68 iBUG landmarks in original pixels. */
  landmarks: Point[];
  yawDeg: number;
  rollDeg: number;
};

export type AntispoofScores = {
  /** Human's `antispoof` model: 0..1, higher = a real face rather than a photo/screen. Advisory only. */
  real: number;
  /** Human's `liveness` model: 0..1, higher = live. Advisory only. */
  live: number;
};

export type FaceEmbedding = {
  /** 128 float32 values; compare with `compareDescriptors`. */
  descriptor: number[];
  box: FaceBox;
  score: number;
  landmarks: Point[];
  quality: FaceQuality;
  /** Present when requested (live captures). A score, not a gate. */
  antispoof?: AntispoofScores;
  /** Detection passes needed (0 = first pass; higher = the face was hard to find). */
  detectionPass: number;
  ms: number;
};

export type EmbedOptions = {
  antispoof?: boolean;
  /** Throw FaceError('low_quality') when the quality check fails (live captures). Default false. */
  requireQuality?: boolean;
  qualityThresholds?: QualityThresholds;
};

const round = (v: number, digits = 2) => Math.round(v * 10 ** digits) / 10 ** digits;

function toOriginal(image: RgbImage, box: FaceBox): FaceBox {
  const s = image.scale;
  return {
    x: round(box.x / s, 1),
    y: round(box.y / s, 1),
    width: round(box.width / s, 1),
    height: round(box.height / s, 1),
  };
}

function toOriginalPoints(image: RgbImage, points: Point[]): Point[] {
  return points.map((p) => ({ x: round(p.x / image.scale, 1), y: round(p.y / image.scale, 1) }));
}

/** Detects every face (largest first), with landmarks. Never throws for "no face": returns []. */
export function detectFaces(image: Uint8Array): Promise<FaceDetection[]> {
  return serialised(async () => {
    const m = await models();
    const decoded = await decodeForFaces(image);
    const { faces, input } = await detectAll(m, decoded);
    input?.tensor.dispose();
    return faces.map((f) => ({
      box: toOriginal(decoded, f.box),
      score: round(f.score, 3),
      landmarks: toOriginalPoints(decoded, f.landmarks),
      yawDeg: round(estimateYawDeg(f.landmarks), 1),
      rollDeg: round(estimateRollDeg(f.landmarks), 1),
    }));
  });
}

async function measureQuality(
  image: RgbImage,
  face: RawFace,
  faceCount: number,
  thresholds: QualityThresholds,
): Promise<FaceQuality> {
  const grey = await greyCrop(image, face.box, 128);
  return assessFaceQuality(
    {
      faceCount,
      imageWidth: image.width,
      imageHeight: image.height,
      box: {
        x: round(face.box.x, 1),
        y: round(face.box.y, 1),
        width: round(face.box.width, 1),
        height: round(face.box.height, 1),
      },
      sharpness: round(sharpness(grey, 128, 128), 4),
      yawDeg: round(estimateYawDeg(face.landmarks), 1),
      rollDeg: round(estimateRollDeg(face.landmarks), 1),
      brightness: round(meanOf(grey), 1),
    },
    thresholds,
  );
}

/** Human's preprocessing: a square crop 1.4x the face box, 0..1 floats, resized to the model input. */
async function antispoofScores(
  m: Models,
  input: PassInput,
  face: RawFace,
): Promise<AntispoofScores> {
  const { tf } = m;
  const xs = face.result.landmarks.positions.map((p) => p.x);
  const ys = face.result.landmarks.positions.map((p) => p.y);
  const cx = (Math.min(...xs) + Math.max(...xs)) / 2;
  const cy = (Math.min(...ys) + Math.max(...ys)) / 2;
  const side = 1.4 * Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys));
  const [h, w] = input.tensor.shape;
  const box = [(cy - side / 2) / h, (cx - side / 2) / w, (cy + side / 2) / h, (cx + side / 2) / w];
  const run = async (model: TF.GraphModel, size: number): Promise<number> => {
    const out = tf.tidy(() => {
      const batch = tf.div(tf.expandDims(tf.cast(input.tensor, 'float32'), 0), 255) as TF.Tensor4D;
      const crop = tf.image.cropAndResize(batch, [box], [0], [size, size]);
      return model.execute(crop) as TF.Tensor;
    });
    const data = await out.data();
    out.dispose();
    return round(data[0] ?? 0, 3);
  };
  return { real: await run(m.antispoof, 128), live: await run(m.liveness, 32) };
}

async function embedDecoded(
  m: Models,
  decoded: RgbImage,
  options: EmbedOptions,
): Promise<FaceEmbedding> {
  const started = performance.now();
  const { faces, input, pass } = await detectAll(m, decoded);
  try {
    const count = countCompetingFaces(faces.map((f) => f.box));
    const face = faces[0];
    if (!face || !input || count === 0) throw new FaceError('no_face');
    if (count > 1) {
      throw new FaceError(
        'multiple_faces',
        `${count} faces found in the image. Make sure only the driver is in the frame and retake the photo.`,
      );
    }
    const quality = await measureQuality(
      decoded,
      face,
      count,
      options.qualityThresholds ?? DEFAULT_QUALITY_THRESHOLDS,
    );
    if (options.requireQuality && !quality.ok) {
      throw new FaceError('low_quality', quality.message, quality.issues);
    }
    const { faceapi } = m;
    const aligned = face.result.landmarks.align(null, { useDlibAlignment: true });
    const [faceTensor] = await faceapi.extractFaceTensors(
      // face-api types its own bundled copy of the tfjs Tensor class; at run time it is the same one.
      input.tensor as unknown as Parameters<FaceApiModule['extractFaceTensors']>[0],
      [aligned],
    );
    if (!faceTensor) throw new FaceError('no_face');
    let descriptor: Float32Array;
    try {
      descriptor = (await faceapi.nets.faceRecognitionNet.computeFaceDescriptor(
        faceTensor,
      )) as Float32Array;
    } finally {
      faceTensor.dispose();
    }
    const antispoof = options.antispoof ? await antispoofScores(m, input, face) : undefined;
    return {
      descriptor: Array.from(descriptor),
      box: toOriginal(decoded, face.box),
      score: round(face.score, 3),
      landmarks: toOriginalPoints(decoded, face.landmarks),
      quality,
      ...(antispoof ? { antispoof } : {}),
      detectionPass: pass,
      ms: Math.round(performance.now() - started),
    };
  } finally {
    input?.tensor.dispose();
  }
}

/**
 * Detects the one face in the photo and returns its descriptor. Throws FaceError 'no_face' or
 * 'multiple_faces' (never a descriptor of a guessed face), 'invalid_image', and 'low_quality' when
 * `requireQuality` is set.
 */
export function embedFace(image: Uint8Array, options: EmbedOptions = {}): Promise<FaceEmbedding> {
  return serialised(async () => {
    const started = performance.now();
    const m = await models();
    const decoded = await decodeForFaces(image);
    const result = await embedDecoded(m, decoded, options);
    return { ...result, ms: Math.round(performance.now() - started) };
  });
}

/** Quality check for a live capture: the face must pass every rule. Returns the quality either way. */
export async function checkFaceQuality(
  image: Uint8Array,
  options: Omit<EmbedOptions, 'requireQuality'> = {},
): Promise<FaceQuality & { antispoof?: AntispoofScores }> {
  try {
    const e = await embedFace(image, { antispoof: true, ...options });
    return { ...e.quality, ...(e.antispoof ? { antispoof: e.antispoof } : {}) };
  } catch (error) {
    if (
      error instanceof FaceError &&
      (error.kind === 'no_face' || error.kind === 'multiple_faces')
    ) {
      const issue = error.kind;
      return {
        ok: false,
        issues: [issue],
        message: error.message,
        metrics: {
          faceCount: issue === 'no_face' ? 0 : 2,
          imageWidth: 0,
          imageHeight: 0,
          box: { x: 0, y: 0, width: 0, height: 0 },
          sharpness: 0,
          yawDeg: 0,
          rollDeg: 0,
          brightness: 0,
        },
      };
    }
    throw error;
  }
}

export type FaceComparison = DescriptorComparison & {
  faces: [Omit<FaceEmbedding, 'descriptor'>, Omit<FaceEmbedding, 'descriptor'>];
  ms: number;
};

/** Compares the one face in each photo. Throws FaceError when either photo has no face or several. */
export async function compareFaces(a: Uint8Array, b: Uint8Array): Promise<FaceComparison> {
  const started = performance.now();
  const ea = await embedFace(a);
  const eb = await embedFace(b);
  const { descriptor: da, ...fa } = ea;
  const { descriptor: db, ...fb } = eb;
  return {
    ...compareDescriptors(da, db),
    faces: [fa, fb],
    ms: Math.round(performance.now() - started),
  };
}

/** Live photo against a stored descriptor (the gate's common case: one embedding, not two). */
export async function compareFaceToDescriptor(
  image: Uint8Array,
  stored: ArrayLike<number>,
  options: EmbedOptions = {},
): Promise<DescriptorComparison & { face: Omit<FaceEmbedding, 'descriptor'>; ms: number }> {
  const started = performance.now();
  assertDescriptor(stored, 'stored descriptor');
  const { descriptor, ...face } = await embedFace(image, options);
  return {
    ...compareDescriptors(descriptor, stored),
    face,
    ms: Math.round(performance.now() - started),
  };
}

/** For tests and the bench: tensors alive in the tfjs engine (should not grow between calls). */
export async function engineTensorCount(): Promise<number> {
  const m = await models();
  return m.tf.memory().numTensors;
}
