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

import { averageDescriptors, chipToImageTransform } from './alignment';
import { FaceError } from './errors';
import { type RgbImage, decodeForFaces, greyCrop } from './image';
import { type Point, estimateRollDeg, estimateYawDeg } from './landmarks';
import { type DescriptorComparison, assertDescriptor, compareDescriptors } from './match-score';
import { skinMap } from './skin-screen';
import { type TileSearch, searchTiles } from './tile-search';
import { type Rect, clampTileBudget, tileLevels } from './tiling';
import { installWasmCopyKernels } from './wasm-copy-kernels';
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
  installWasmCopyKernels(tf);

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
 * Detection passes, tried in order until one finds a confident face.
 *
 * - TinyFaceDetector at two input sizes, merged: 224 px finds faces that fill the frame (a capture at
 *   arm's length), 416 px finds smaller faces (a passenger, a group). Each size alone misses faces the
 *   other finds; together they cost ~0.1 s of CPU. 512 px finds more small faces in crowded photos but
 *   costs twice as much as 416 px, so it only runs around a lone small face (see CLOSE_UP_FRACTION).
 * - The same on the photo padded with grey: tight face crops (ID photos, pre-cropped portraits) have no
 *   context around the face, which both detectors need.
 * - SSD MobileNet v1 (~0.4 s) on the padded photo: the slow recall fallback.
 *
 * - Both detectors again on the contrast-stretched photo (`normalise`: the 1st..99th luminance
 *   percentiles stretched to full range): a dim, hazy or backlit face has too little contrast for either
 *   detector, and the stretched pixels are also what the landmarks and the descriptor then see.
 *
 * A photo without a face runs all five (~0.8 s): the error path, where the guard retakes the photo.
 */
type Pass = { pad: number; normalise?: boolean } & (
  { detector: 'tiny'; sizes: readonly number[] } | { detector: 'ssd' }
);
const PASSES: readonly Pass[] = [
  { detector: 'tiny', sizes: [224, 416], pad: 0 },
  { detector: 'tiny', sizes: [224, 416], pad: 0.5 },
  { detector: 'ssd', pad: 0.5 },
  { detector: 'tiny', sizes: [224, 416], pad: 0.5, normalise: true },
  { detector: 'ssd', pad: 0.5, normalise: true },
];
/** A face must score this to be used. */
const MIN_DETECTION_SCORE = 0.5;
/** Next to a confident face, a weaker detection still counts as "another face" (both detectors under-score some real faces). */
const SECONDARY_DETECTION_SCORE = 0.35;
/** Boxes from the two Tiny input sizes overlapping more than this are the same face. */
const SAME_FACE_IOU = 0.3;
const PAD_GREY = { r: 128, g: 128, b: 128 };

type PassInput = {
  tensor: TF.Tensor3D;
  /** pass pixel = (analysed pixel + pad) * scale, per axis */
  padX: number;
  padY: number;
  scale: number;
};

type Candidate = {
  /** In analysed-image pixels. */
  box: FaceBox;
  score: number;
  /** face-api's detection, in pass pixels. */
  detection: FaceApi.FaceDetection;
};

type RawFace = Candidate & {
  landmarks: Point[];
  /** face-api's landmark object, in pass pixels (for alignment). */
  result: FaceApi.WithFaceLandmarks<{ detection: FaceApi.FaceDetection }, FaceApi.FaceLandmarks68>;
};

/** The image with its luminance stretched so that the 1st..99th percentiles span the full range. */
export async function stretchContrast(image: RgbImage): Promise<RgbImage> {
  const data = await sharp(image.data, {
    raw: { width: image.width, height: image.height, channels: 3 },
  })
    .normalise({ lower: 1, upper: 99 })
    .raw()
    .toBuffer();
  return { ...image, data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
}

async function passInput(
  m: Models,
  original: RgbImage,
  padFraction: number,
  normalise = false,
): Promise<PassInput> {
  const image = normalise ? await stretchContrast(original) : original;
  // float32 from the start: every consumer (detectors, alignment, anti-spoof) casts to float32, and a
  // float32 -> float32 cast is a plain copy where int32 -> float32 converts value by value.
  if (padFraction === 0) {
    const tensor = m.tf.tensor3d(new Float32Array(image.data), [image.height, image.width, 3]);
    return { tensor, padX: 0, padY: 0, scale: 1 };
  }
  const pad = Math.round(Math.max(image.width, image.height) * padFraction);
  const { data, info } = await sharp(image.data, {
    raw: { width: image.width, height: image.height, channels: 3 },
  })
    .extend({ top: pad, bottom: pad, left: pad, right: pad, background: PAD_GREY })
    .resize({ width: 1024, height: 1024, fit: 'inside', withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const tensor = m.tf.tensor3d(new Float32Array(data), [info.height, info.width, 3]);
  return { tensor, padX: pad, padY: pad, scale: info.width / (image.width + 2 * pad) };
}

function iou(a: FaceBox, b: FaceBox): number {
  const x0 = Math.max(a.x, b.x);
  const y0 = Math.max(a.y, b.y);
  const x1 = Math.min(a.x + a.width, b.x + b.width);
  const y1 = Math.min(a.y + a.height, b.y + b.height);
  const inter = Math.max(0, x1 - x0) * Math.max(0, y1 - y0);
  const union = a.width * a.height + b.width * b.height - inter;
  return union > 0 ? inter / union : 0;
}

const area = (b: FaceBox) => b.width * b.height;

async function tinyDetections(
  m: Models,
  input: PassInput,
  sizes: readonly number[],
): Promise<FaceApi.FaceDetection[]> {
  const { faceapi } = m;
  const detections: FaceApi.FaceDetection[] = [];
  for (const inputSize of sizes) {
    const options = new faceapi.TinyFaceDetectorOptions({
      inputSize,
      scoreThreshold: SECONDARY_DETECTION_SCORE,
    });
    detections.push(...(await faceapi.detectAllFaces(input.tensor, options)));
  }
  return detections;
}

/** Detections -> candidates in analysed pixels, one per face (best score kept), largest first. */
function toCandidates(input: PassInput, detections: FaceApi.FaceDetection[]): Candidate[] {
  const candidates = detections
    .map((detection) => {
      const b = detection.box;
      return {
        box: {
          x: b.x / input.scale - input.padX,
          y: b.y / input.scale - input.padY,
          width: b.width / input.scale,
          height: b.height / input.scale,
        },
        score: detection.score,
        detection,
      };
    })
    .sort((a, b) => b.score - a.score);
  const kept: Candidate[] = [];
  for (const c of candidates) {
    if (kept.every((k) => iou(k.box, c.box) <= SAME_FACE_IOU)) kept.push(c);
  }
  return kept.sort((a, b) => area(b.box) - area(a.box));
}

/** Raw detections of one pass (score >= SECONDARY_DETECTION_SCORE), in pass pixels. */
async function detectInPass(
  m: Models,
  input: PassInput,
  pass: Pass,
): Promise<FaceApi.FaceDetection[]> {
  if (pass.detector === 'tiny') return tinyDetections(m, input, pass.sizes);
  const options = new m.faceapi.SsdMobilenetv1Options({
    minConfidence: SECONDARY_DETECTION_SCORE,
    maxResults: 20,
  });
  return m.faceapi.detectAllFaces(input.tensor, options);
}

/** 68 landmarks for the given candidates (face-api's own landmark task on our detections). */
async function withLandmarks(
  m: Models,
  input: PassInput,
  candidates: Candidate[],
): Promise<RawFace[]> {
  if (candidates.length === 0) return [];
  const { faceapi } = m;
  const sources = candidates.map((c) => faceapi.extendWithFaceDetection({}, c.detection));
  const results = await new faceapi.DetectAllFaceLandmarksTask(
    Promise.resolve(sources),
    input.tensor,
    false,
  ).run();
  const toImage = (p: { x: number; y: number }): Point => ({
    x: p.x / input.scale - input.padX,
    y: p.y / input.scale - input.padY,
  });
  return results.map((result, i) => ({
    ...candidates[i]!,
    landmarks: result.landmarks.positions.map(toImage),
    result,
  }));
}

type Detected = {
  /** Candidates of the first successful pass, largest first. */
  candidates: Candidate[];
  /** The largest confident face, or null when no pass found one. */
  main: Candidate | null;
  /** Faces competing with `main` (>= half its size), `main` included. */
  count: number;
  /** The pass's pixels; null when the face was found on tiles (see `full`). */
  input: PassInput | null;
  /** Index in PASSES; PASSES.length = found on tiles of the full-resolution photo. */
  pass: number;
  /** The full-resolution photo, when tiling ran. */
  full: FullRes | null;
  /** When the tiles ran: how many were searched, and how many the skin screen left out. */
  tiles?: TileSearch;
};

/**
 * A lone face smaller than this share of the photo's shorter side is not a close-up: the photo may be a
 * group or a scene, so it is searched again at SMALL_FACE_SIZE px for other faces of comparable size.
 */
const CLOSE_UP_FRACTION = 0.25;
const SMALL_FACE_SIZE = 512;

/**
 * Runs the passes until one finds a confident face; when none does and `loadFull` is given, searches
 * tiles of the full-resolution photo. The caller disposes `input.tensor`.
 */
async function detectAll(
  m: Models,
  image: RgbImage,
  loadFull?: () => Promise<FullRes>,
  tileBudget = MAX_TILES_PER_LEVEL,
): Promise<Detected> {
  clampTileBudget(tileBudget, MAX_TILES_PER_LEVEL); // rejects a budget that is not a whole number up front
  for (let i = 0; i < PASSES.length; i++) {
    const pass = PASSES[i]!;
    const input = await passInput(m, image, pass.pad, pass.normalise);
    try {
      const detections = await detectInPass(m, input, pass);
      let candidates = toCandidates(input, detections);
      let main = candidates.find((c) => c.score >= MIN_DETECTION_SCORE);
      if (!main) {
        input.tensor.dispose();
        continue;
      }
      const count = (c: Candidate[], ref: Candidate) =>
        countCompetingFaces(
          c.map((x) => x.box),
          0.5,
          ref.box,
        );
      const side = Math.sqrt(area(main.box));
      if (
        pass.detector === 'tiny' &&
        count(candidates, main) === 1 &&
        side < CLOSE_UP_FRACTION * Math.min(image.width, image.height)
      ) {
        detections.push(...(await tinyDetections(m, input, [SMALL_FACE_SIZE])));
        candidates = toCandidates(input, detections);
        main = candidates.find((c) => c.score >= MIN_DETECTION_SCORE)!;
      }
      return { candidates, main, count: count(candidates, main), input, pass: i, full: null };
    } catch (error) {
      input.tensor.dispose();
      throw error;
    }
  }
  if (loadFull) {
    const full = await loadFull();
    const { candidates, tiles } = await detectInTiles(m, full, tileBudget);
    const main = candidates.find((c) => c.score >= MIN_DETECTION_SCORE);
    if (main) {
      const count = countCompetingFaces(
        candidates.map((c) => c.box),
        0.5,
        main.box,
      );
      return { candidates, main, count, input: null, pass: PASSES.length, full, tiles };
    }
    return { candidates: [], main: null, count: 0, input: null, pass: -1, full: null, tiles };
  }
  return { candidates: [], main: null, count: 0, input: null, pass: -1, full: null };
}

// ---------------------------------------------------------------------------------------------------
// Small faces in large photos: tiles of the full-resolution photo, and landmarks + descriptor from it

/** The full-resolution photo is decoded at most this large on the long side (16 MP, 48 MB of RGB). */
const FULL_RES_SIDE = 4096;
/** TinyFaceDetector's input size on each tile (tiles are resized to it). */
const TILE_INPUT = 416;
/**
 * A face narrower than this in the pixels it was found in is described from the full-resolution photo
 * when that holds at least FULL_RES_GAIN times more of it (the recognition net's crop is 150 px).
 */
const REFINE_BELOW_PX = 100;
const FULL_RES_GAIN = 1.5;
/** The crop around a face for landmarks and descriptor: this many face sides wide, the face FACE_CROP_PX wide. */
const FACE_CROP_SIDES = 3;
const FACE_CROP_PX = 160;

type FullRes = {
  image: RgbImage;
  /** full-resolution pixel = analysed pixel * k */
  k: number;
};

async function decodeFullRes(bytes: Uint8Array, analysed: RgbImage): Promise<FullRes> {
  const image = await decodeForFaces(bytes, { maxSide: FULL_RES_SIDE });
  return { image, k: image.width / analysed.width };
}

/** How many full-resolution pixels one analysed pixel becomes, without decoding. */
function fullResFactor(analysed: RgbImage): number {
  const long = Math.max(analysed.originalWidth, analysed.originalHeight);
  return Math.min(long, FULL_RES_SIDE) / Math.max(analysed.width, analysed.height);
}

/** A region of the full-resolution photo, resized by `r` (sharp's resampling), as pass pixels. */
async function regionInput(m: Models, full: FullRes, region: Rect, r: number): Promise<PassInput> {
  const { width, height } = full.image;
  const { data, info } = await sharp(full.image.data, { raw: { width, height, channels: 3 } })
    .extract(region)
    .resize({
      width: Math.max(1, Math.round(region.width * r)),
      height: Math.max(1, Math.round(region.height * r)),
      fit: 'fill',
    })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const tensor = m.tf.tensor3d(new Float32Array(data), [info.height, info.width, 3]);
  const scale = full.k * (info.width / region.width);
  return { tensor, padX: -region.left / full.k, padY: -region.top / full.k, scale };
}

/**
 * At most this many tiles of one level are searched, most promising first (skin-screen.ts): the CPU
 * budget of a photo without a face (6 + 12 + 12 detector runs on a 12 MP photo instead of 6 + 20 + 88).
 */
const MAX_TILES_PER_LEVEL = 12;

/** Full-resolution pixels per pixel of the skin map (skin-screen.ts): a 4096 px photo gives a 512 px map. */
const SKIN_MAP_REDUCTION = 8;

/** The skin map of the full-resolution photo, from an area-averaged downscale (noise averages out). */
async function fullResSkinMap(full: FullRes) {
  const { width, height } = full.image;
  const { data, info } = await sharp(full.image.data, { raw: { width, height, channels: 3 } })
    .resize({
      width: Math.max(1, Math.round(width / SKIN_MAP_REDUCTION)),
      height: Math.max(1, Math.round(height / SKIN_MAP_REDUCTION)),
      fit: 'fill',
    })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return skinMap(data, info.width, info.height, width / info.width);
}

/**
 * Tiles of the full-resolution photo, coarse to fine (tiling.ts), each at the detector's input size;
 * detections merged across tiles (NMS in analysed-image coordinates). Stops at the first level with a
 * confident face. Tiles holding a skin-coloured patch as large as the smallest face the detector finds
 * on them are searched (skin-screen.ts; every tile of a photo without colour), the most promising first,
 * plus a few slots for the tiles of most face-like structure whatever their colour (a greyscale print, a
 * colour cast), at most MAX_TILES_PER_LEVEL per level in all. Once a level finds a face, every tile not
 * yet searched on it and on the coarser levels that may hold a competing face is searched (tile-search.ts).
 * The candidates' `detection`s refer to disposed tiles: use faceFromFullRes.
 */
async function detectInTiles(
  m: Models,
  full: FullRes,
  budget: number,
): Promise<{ candidates: Candidate[]; tiles: TileSearch }> {
  return searchTiles({
    levels: tileLevels(full.image.width, full.image.height),
    skin: await fullResSkinMap(full),
    budget,
    k: full.k,
    minScore: MIN_DETECTION_SCORE,
    sameFaceIou: SAME_FACE_IOU,
    search: async (tile) => {
      const input = await regionInput(
        m,
        full,
        tile,
        TILE_INPUT / Math.max(tile.width, tile.height),
      );
      try {
        return toCandidates(input, await tinyDetections(m, input, [TILE_INPUT]));
      } finally {
        input.tensor.dispose();
      }
    },
  });
}

/**
 * The face again in a crop of the full-resolution photo around it (FACE_CROP_SIDES face sides, the face
 * resized to FACE_CROP_PX), detected anew there so landmarks and descriptor come from real pixels rather
 * than the downscaled photo. When the crop's detection does not confirm it: null if `confirm`, else the
 * known box carried into the crop. The caller disposes `input.tensor`.
 */
async function faceFromFullRes(
  m: Models,
  full: FullRes,
  face: Candidate,
  confirm: boolean,
): Promise<{ input: PassInput; candidate: Candidate } | null> {
  const { width, height } = full.image;
  const side = Math.max(face.box.width, face.box.height) * full.k;
  const cx = (face.box.x + face.box.width / 2) * full.k;
  const cy = (face.box.y + face.box.height / 2) * full.k;
  const half = (FACE_CROP_SIDES * side) / 2;
  const left = Math.min(width - 1, Math.max(0, Math.floor(cx - half)));
  const top = Math.min(height - 1, Math.max(0, Math.floor(cy - half)));
  const region = {
    left,
    top,
    width: Math.max(1, Math.min(width, Math.ceil(cx + half)) - left),
    height: Math.max(1, Math.min(height, Math.ceil(cy + half)) - top),
  };
  const input = await regionInput(m, full, region, FACE_CROP_PX / Math.max(1, side));
  try {
    const found = toCandidates(input, await tinyDetections(m, input, [224, 416]))
      .filter((c) => c.score >= MIN_DETECTION_SCORE && iou(c.box, face.box) > SAME_FACE_IOU)
      .sort((a, b) => b.score - a.score);
    let candidate = found[0];
    if (!candidate && !confirm) {
      const [h, w] = input.tensor.shape;
      const b = face.box;
      const x = (b.x + input.padX) * input.scale;
      const y = (b.y + input.padY) * input.scale;
      const rect = new m.faceapi.Rect(
        x / w,
        y / h,
        (b.width * input.scale) / w,
        (b.height * input.scale) / h,
      );
      candidate = {
        ...face,
        detection: new m.faceapi.FaceDetection(face.score, rect, { width: w, height: h }),
      };
    }
    if (!candidate) {
      input.tensor.dispose();
      return null;
    }
    return { input, candidate };
  } catch (error) {
    input.tensor.dispose();
    throw error;
  }
}

/** Whether a face found in a pass is small enough there, and the photo large enough, to describe it from the full-resolution photo. */
function worthFullRes(analysed: RgbImage, input: PassInput, face: Candidate): boolean {
  const side = Math.max(face.box.width, face.box.height);
  return (
    side * input.scale < REFINE_BELOW_PX && fullResFactor(analysed) >= FULL_RES_GAIN * input.scale
  );
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
  /**
   * Detection passes needed (0 = first pass; higher = the face was hard to find; 5 = found only on tiles
   * of the full-resolution photo: a small face in a large photo).
   */
  detectionPass: number;
  /** Landmarks and descriptor came from a crop of the full-resolution photo (a small face), not the analysed image. */
  fullResolution: boolean;
  ms: number;
};

export type EmbedOptions = DescriptorOptions & {
  antispoof?: boolean;
  /**
   * Tiles searched per level of a large photo before a face is found (default MAX_TILES_PER_LEVEL, 12):
   * the CPU bound of a photo without a face. Lowered only by tests, to reach the over-budget paths.
   */
  tileBudget?: number;
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

/**
 * Detects every face (largest first), with landmarks. Never throws for "no face": returns []. Faces
 * scoring under 0.5 appear only next to a confident one (they count as "another face" but are never used
 * for matching).
 */
export function detectFaces(image: Uint8Array): Promise<FaceDetection[]> {
  return serialised(async () => {
    const m = await models();
    const decoded = await decodeForFaces(image);
    const { candidates, input } = await detectAll(m, decoded);
    if (!input) return [];
    try {
      const faces = await withLandmarks(m, input, candidates);
      return faces.map((f) => ({
        box: toOriginal(decoded, f.box),
        score: round(f.score, 3),
        landmarks: toOriginalPoints(decoded, f.landmarks),
        yawDeg: round(estimateYawDeg(f.landmarks), 1),
        rollDeg: round(estimateRollDeg(f.landmarks), 1),
      }));
    } finally {
      input.tensor.dispose();
    }
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

const ANTISPOOF_CROP = 1.8;

/** Human's preprocessing: a square crop around the face, 0..1 floats, resized to the model input. */
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
  // Human crops its BlazeFace box enlarged 1.4x; that box is larger than the 68-landmark extent, and
  // 1.8x the landmark extent reproduces Human's own scores best on the dev photos (the models are
  // sensitive to the crop, one more reason the scores are advisory only).
  const side =
    ANTISPOOF_CROP * Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys));
  const [h, w] = input.tensor.shape;
  const box = [(cy - side / 2) / h, (cx - side / 2) / w, (cy + side / 2) / h, (cx + side / 2) / w];
  const run = async (model: TF.GraphModel, size: number): Promise<number> => {
    const out = tf.tidy(() => {
      const batch = tf.div<TF.Tensor4D>(tf.expandDims(tf.cast(input.tensor, 'float32'), 0), 255);
      const crop = tf.image.cropAndResize(batch, [box], [0], [size, size]);
      return model.execute(crop) as TF.Tensor;
    });
    const data = await out.data();
    out.dispose();
    return round(data[0] ?? 0, 3);
  };
  return { real: await run(m.antispoof, 128), live: await run(m.liveness, 32) };
}

/**
 * Crops the recognition net sees (each is described, with its mirror image when `flipAverage`, and the
 * descriptors are averaged):
 * - 'chip': dlib's face chip, the net's training crop (least-squares similarity fit of landmarks
 *   17..67 to dlib's mean face, 25 % padding; see alignment.ts).
 * - 'box': face-api's eye/mouth box rotated upright (tighter, placed from three landmark centres).
 * Averaging descriptors of differently cut crops and of the mirror image (test-time augmentation)
 * cancels part of what depends on landmark placement, pose and lighting rather than on identity.
 */
export type FaceCrop = 'chip' | 'box';
export const DEFAULT_FACE_CROPS: readonly FaceCrop[] = ['chip', 'box'];

/** The 8-number tf.image.transform (output pixel -> pass pixel) of face-api's box, rotated upright. */
function boxTransform(p: readonly Point[], out: number): number[] {
  const centre = (from: number, to: number) => {
    let x = 0;
    let y = 0;
    for (let i = from; i < to; i++) {
      x += p[i]!.x;
      y += p[i]!.y;
    }
    return { x: x / (to - from), y: y / (to - from) };
  };
  const eyeA = centre(36, 42);
  const eyeB = centre(42, 48);
  const mouth = centre(48, 68);
  const size =
    (Math.hypot(mouth.x - eyeA.x, mouth.y - eyeA.y) +
      Math.hypot(mouth.x - eyeB.x, mouth.y - eyeB.y)) /
    2 /
    0.45;
  const ref = { x: (eyeA.x + eyeB.x + mouth.x) / 3, y: (eyeA.y + eyeB.y + mouth.y) / 3 };
  const theta = Math.atan2(eyeB.y - eyeA.y, eyeB.x - eyeA.x);
  const cos = Math.cos(theta);
  const sin = Math.sin(theta);
  const s = size / out;
  // Output pixel (u, v) -> face frame (lx, ly) relative to ref -> rotated into the image.
  const lx0 = 0.5 * s - 0.5 * size;
  const ly0 = 0.5 * s - 0.43 * size;
  return [
    cos * s,
    -sin * s,
    ref.x + cos * lx0 - sin * ly0,
    sin * s,
    cos * s,
    ref.y + sin * lx0 + cos * ly0,
    0,
    0,
  ];
}

/**
 * The 150x150 crop the recognition net sees, sampled straight from the pass tensor with one affine warp
 * (tf.image.transform), so a tilted head gives the same crop as an upright one.
 */
function alignedFace(m: Models, input: PassInput, face: RawFace, crop: FaceCrop): TF.Tensor3D {
  const { tf } = m;
  const p = face.result.landmarks.positions;
  const out = 150;
  let transform: number[];
  if (crop === 'box') {
    transform = boxTransform(p, out);
  } else {
    const t = chipToImageTransform(p, out);
    transform = [t.a, -t.b, t.tx, t.b, t.a, t.ty, 0, 0];
  }
  return tf.tidy(() => {
    const batch = tf.expandDims<TF.Tensor4D>(tf.cast(input.tensor, 'float32'), 0);
    const warped = tf.image.transform(
      batch,
      tf.tensor2d([transform], [1, 8]),
      'bilinear',
      // Beyond the image edge (tight crops, ID photos) repeat the edge pixels: a flat grey band is a
      // feature the net never saw in training.
      'nearest',
      128,
      [out, out],
    );
    return tf.squeeze<TF.Tensor3D>(warped, [0]);
  });
}

export type DescriptorOptions = {
  /** Default DEFAULT_FACE_CROPS. */
  crops?: readonly FaceCrop[];
  /** Also describe each crop's mirror image. Default true. */
  flipAverage?: boolean;
};

async function describeAligned(
  m: Models,
  input: PassInput,
  face: RawFace,
  options: DescriptorOptions,
): Promise<Float32Array> {
  const net = m.faceapi.nets.faceRecognitionNet;
  const descriptors: Float32Array[] = [];
  for (const crop of options.crops ?? DEFAULT_FACE_CROPS) {
    const faceTensor = alignedFace(m, input, face, crop);
    try {
      descriptors.push((await net.computeFaceDescriptor(faceTensor)) as Float32Array);
      if (options.flipAverage !== false) {
        const mirrored = m.tf.reverse(faceTensor, 1);
        try {
          descriptors.push((await net.computeFaceDescriptor(mirrored)) as Float32Array);
        } finally {
          mirrored.dispose();
        }
      }
    } finally {
      faceTensor.dispose();
    }
  }
  return averageDescriptors(descriptors);
}

/**
 * The face to describe and the pixels to describe it from: the pass's own, or a crop of the
 * full-resolution photo for a face found on tiles (confirmed by a second detection in the crop, else the
 * next confident candidate) or one that is small in the pass's pixels. The caller disposes `input.tensor`.
 */
async function faceToDescribe(
  m: Models,
  decoded: RgbImage,
  detected: Detected,
  loadFull: () => Promise<FullRes>,
): Promise<{ face: Candidate; input: PassInput; count: number; fullResolution: boolean } | null> {
  const { main, input, full } = detected;
  if (!main) return null;
  if (input) {
    if (!worthFullRes(decoded, input, main)) {
      return { face: main, input, count: detected.count, fullResolution: false };
    }
    const refined = await faceFromFullRes(m, await loadFull(), main, false);
    input.tensor.dispose();
    detected.input = null;
    if (!refined) return null;
    return {
      face: refined.candidate,
      input: refined.input,
      count: detected.count,
      fullResolution: true,
    };
  }
  if (!full) return null;
  let candidates = detected.candidates;
  for (const c of candidates.filter((x) => x.score >= MIN_DETECTION_SCORE)) {
    const refined = await faceFromFullRes(m, full, c, true);
    if (!refined) {
      candidates = candidates.filter((x) => x !== c);
      continue;
    }
    const count = countCompetingFaces(
      candidates.map((x) => x.box),
      0.5,
      c.box,
    );
    return { face: refined.candidate, input: refined.input, count, fullResolution: true };
  }
  return null;
}

/** Why no face was found, for the logs: what the tile search covered. */
function noFaceDetail({ tiles }: Detected): string | undefined {
  // A photo too small for tiles (none at any level) answers as before, without a detail.
  if (!tiles || tiles.searched + tiles.screenedOut + tiles.overBudget === 0) return undefined;
  return `No face in the detection passes nor on ${tiles.searched} tiles of the full-resolution photo; not searched: ${tiles.screenedOut} tiles without a skin-coloured patch as large as a face, ${tiles.overBudget} less promising tiles over the budget of ${tiles.budget} per level (searched per level: ${tiles.perLevel.join(', ')}).`;
}

async function embedDecoded(
  m: Models,
  decoded: RgbImage,
  bytes: Uint8Array,
  options: EmbedOptions,
): Promise<FaceEmbedding> {
  const started = performance.now();
  let full: Promise<FullRes> | undefined;
  const loadFull = () => (full ??= decodeFullRes(bytes, decoded));
  const detected = await detectAll(m, decoded, loadFull, options.tileBudget);
  let chosen: Awaited<ReturnType<typeof faceToDescribe>> = null;
  try {
    chosen = await faceToDescribe(m, decoded, detected, loadFull);
    if (!chosen) throw new FaceError('no_face', undefined, undefined, noFaceDetail(detected));
    const { face: main, input, count } = chosen;
    const { pass } = detected;
    if (count > 1) {
      throw new FaceError(
        'multiple_faces',
        `${count} faces found in the image. Make sure only the driver is in the frame and retake the photo.`,
      );
    }
    const [face] = await withLandmarks(m, input, [main]);
    if (!face) throw new FaceError('no_face');
    const quality = await measureQuality(
      decoded,
      face,
      count,
      options.qualityThresholds ?? DEFAULT_QUALITY_THRESHOLDS,
    );
    if (options.requireQuality && !quality.ok) {
      throw new FaceError('low_quality', quality.message, quality.issues);
    }
    const descriptor = await describeAligned(m, input, face, options);
    const antispoof = options.antispoof ? await antispoofScores(m, input, face) : undefined;
    return {
      descriptor: Array.from(descriptor),
      box: toOriginal(decoded, face.box),
      score: round(face.score, 3),
      landmarks: toOriginalPoints(decoded, face.landmarks),
      quality,
      ...(antispoof ? { antispoof } : {}),
      detectionPass: pass,
      fullResolution: chosen.fullResolution,
      ms: Math.round(performance.now() - started),
    };
  } finally {
    detected.input?.tensor.dispose();
    chosen?.input.tensor.dispose();
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
    const result = await embedDecoded(m, decoded, image, options);
    return { ...result, ms: Math.round(performance.now() - started) };
  });
}

export type CaptureCheck = {
  /** The verdict for the guard: `quality.ok`, `quality.issues`, `quality.message`. */
  quality: FaceQuality;
  /** Passive anti-spoof scores of the face (advisory, never gating); absent when no single face. */
  antispoof?: AntispoofScores;
};

/**
 * Quality check for a live capture. Never throws for "no face" / "more than one face": those are
 * quality issues here, with the retake message.
 */
export async function checkFaceQuality(
  image: Uint8Array,
  options: Pick<EmbedOptions, 'qualityThresholds'> = {},
): Promise<CaptureCheck> {
  try {
    const e = await embedFace(image, { antispoof: true, ...options });
    return { quality: e.quality, ...(e.antispoof ? { antispoof: e.antispoof } : {}) };
  } catch (error) {
    if (
      error instanceof FaceError &&
      (error.kind === 'no_face' || error.kind === 'multiple_faces')
    ) {
      const issue = error.kind;
      return {
        quality: {
          ok: false,
          issues: [issue],
          message: error.message,
          metrics: {
            // 2 stands for "two or more" (the count is in the message).
            faceCount: issue === 'no_face' ? 0 : 2,
            imageWidth: 0,
            imageHeight: 0,
            box: { x: 0, y: 0, width: 0, height: 0 },
            sharpness: 0,
            yawDeg: 0,
            rollDeg: 0,
            brightness: 0,
          },
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

/**
 * Loads the models and runs every network once (the first call of each compiles wasm kernels and grows
 * the heap, ~1 s). Returns the time taken, ms. Call it when a worker starts, not per request.
 */
export function warmUpFaceEngine(): Promise<number> {
  return serialised(async () => {
    const started = performance.now();
    const m = await models();
    const blank: RgbImage = {
      data: new Uint8Array(320 * 240 * 3).fill(128),
      width: 320,
      height: 240,
      scale: 1,
      originalWidth: 320,
      originalHeight: 240,
    };
    const { input } = await detectAll(m, blank); // no face: runs every detection pass
    input?.tensor.dispose();
    const face = m.tf.zeros<TF.Rank.R3>([150, 150, 3]);
    try {
      await m.faceapi.nets.faceLandmark68Net.detectLandmarks(face);
      await m.faceapi.nets.faceRecognitionNet.computeFaceDescriptor(face);
    } finally {
      face.dispose();
    }
    return Math.round(performance.now() - started);
  });
}

/** For tests and the bench: tensors alive in the tfjs engine (should not grow between calls). */
export async function engineTensorCount(): Promise<number> {
  const m = await models();
  return m.tf.memory().numTensors;
}

/** Debug aid: the 150x150 rotation-corrected RGB crop the recognition net sees for the main face. */
export function alignedFaceCrop(
  image: Uint8Array,
): Promise<{ width: number; height: number; rgb: Uint8Array }> {
  return serialised(async () => {
    const m = await models();
    const decoded = await decodeForFaces(image);
    const { main, input } = await detectAll(m, decoded);
    try {
      const [face] = main && input ? await withLandmarks(m, input, [main]) : [];
      if (!face || !input) throw new FaceError('no_face');
      const t = alignedFace(m, input, face, 'chip');
      const data = await t.data();
      t.dispose();
      return {
        width: 150,
        height: 150,
        rgb: Uint8Array.from(data, (v) => Math.max(0, Math.min(255, v))),
      };
    } finally {
      input?.tensor.dispose();
    }
  });
}
