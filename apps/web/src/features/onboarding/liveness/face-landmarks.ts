/**
 * Face landmarks in the browser: @vladmandic/face-api (TinyFaceDetector + the 68-point landmark
 * net) on TensorFlow.js: WebGL or WebAssembly, else plain JavaScript. The weights and the
 * wasm binaries come from our own origin (vite.config.ts copies them into dist/models/); nothing
 * is fetched from anywhere else.
 *
 * Heavy (tfjs + face-api): only ever imported dynamically, from the liveness step.
 */
import { getBackend, ready, setBackend } from '@tensorflow/tfjs/dist/index.js';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm/dist/index.js';
import * as faceapi from '@vladmandic/face-api/dist/face-api.esm-nobundle.js';

import type { Landmarks } from './liveness-check';

/** Same paths as `livenessAssets()` in vite.config.ts. */
const MODELS_URL = `${import.meta.env.BASE_URL}models/face-api`;
const TFJS_WASM_URL = `${import.meta.env.BASE_URL}models/tfjs-wasm/`;

export type FaceBackend = 'webgl' | 'wasm' | 'cpu';

/**
 * WebGL first, unless the browser renders WebGL in software (no GPU: SwiftShader, llvmpipe), where
 * WebAssembly is about ten times faster (measured: 56 vs 610 ms a frame). WebAssembly needs
 * `'wasm-unsafe-eval'` in the page's script-src; without it that backend fails and the next is used.
 */
function backendOrder(): FaceBackend[] {
  return isSoftwareWebgl() ? ['wasm', 'webgl', 'cpu'] : ['webgl', 'wasm', 'cpu'];
}

function isSoftwareWebgl(): boolean {
  try {
    const canvas = document.createElement('canvas');
    const gl = canvas.getContext('webgl2') ?? canvas.getContext('webgl');
    if (!gl) return true;
    const debugInfo = gl.getExtension('WEBGL_debug_renderer_info');
    const renderer: unknown = gl.getParameter(
      debugInfo ? debugInfo.UNMASKED_RENDERER_WEBGL : gl.RENDERER,
    );
    gl.getExtension('WEBGL_lose_context')?.loseContext();
    return /swiftshader|llvmpipe|softpipe|software|basic render/i.test(String(renderer));
  } catch {
    return true;
  }
}

/**
 * Frames are scaled down to this long side before detection: a selfie's face stays well over the
 * landmark net's 112 px, and a 1080p frame is not copied into the model every time.
 */
const MAX_FRAME_SIDE_PX = 640;
/** The captures sent to the server: the face stays sharp enough for its landmarks, in tens of KB. */
const CAPTURE_JPEG_QUALITY = 0.9;

/** 256 px is a multiple of 32 that finds a selfie-sized face quickly on a phone. */
const DETECTOR_OPTIONS = new faceapi.TinyFaceDetectorOptions({
  inputSize: 256,
  scoreThreshold: 0.5,
});

export type FaceLandmarkDetector = {
  backend: FaceBackend;
  /** The 68 landmarks of the most confident face in the video's current frame, or null. */
  detect: (video: HTMLVideoElement) => Promise<Landmarks | null>;
  /** The frame the last `detect` looked at (at most 640 px), as a JPEG data URL. */
  captureDetectedFrame: () => string;
};

async function selectBackend(): Promise<FaceBackend> {
  setWasmPaths(TFJS_WASM_URL);
  for (const name of backendOrder()) {
    try {
      if (await setBackend(name)) {
        await ready();
        if (getBackend() === name) return name;
      }
    } catch {
      // Not available here (no WebGL, wasm blocked by the CSP): try the next one.
    }
  }
  throw new Error('This browser cannot run the face model.');
}

/** Runs both nets once on a blank frame, so shader compilation does not eat the first prompt. */
async function warmUp() {
  const canvas = document.createElement('canvas');
  canvas.width = 128;
  canvas.height = 128;
  await faceapi.detectSingleFace(canvas, DETECTOR_OPTIONS);
  await faceapi.nets.faceLandmark68Net.detectLandmarks(canvas);
}

async function load(): Promise<FaceLandmarkDetector> {
  const backend = await selectBackend();
  await Promise.all([
    faceapi.nets.tinyFaceDetector.loadFromUri(MODELS_URL),
    faceapi.nets.faceLandmark68Net.loadFromUri(MODELS_URL),
  ]);
  await warmUp();
  const frame = document.createElement('canvas');
  return {
    backend,
    async detect(video) {
      // A video without a decoded frame yet has nothing to look at (and face-api would throw).
      if (video.readyState < HTMLMediaElement.HAVE_CURRENT_DATA || video.videoWidth === 0) {
        return null;
      }
      const scale = Math.min(1, MAX_FRAME_SIDE_PX / Math.max(video.videoWidth, video.videoHeight));
      frame.width = Math.round(video.videoWidth * scale);
      frame.height = Math.round(video.videoHeight * scale);
      const context = frame.getContext('2d');
      if (!context) return null;
      context.drawImage(video, 0, 0, frame.width, frame.height);
      const face = await faceapi.detectSingleFace(frame, DETECTOR_OPTIONS).withFaceLandmarks();
      // In scaled-frame pixels: liveness measures movement relative to the eyes' distance.
      return face ? face.landmarks.positions.map(({ x, y }) => ({ x, y })) : null;
    },
    captureDetectedFrame() {
      if (frame.width === 0 || frame.height === 0) throw new Error('No frame was looked at yet');
      return frame.toDataURL('image/jpeg', CAPTURE_JPEG_QUALITY);
    },
  };
}

let loading: Promise<FaceLandmarkDetector> | null = null;

/** Loads the models once per page; a failed load can be retried. */
export function loadFaceLandmarkDetector(): Promise<FaceLandmarkDetector> {
  loading ??= load().catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}
