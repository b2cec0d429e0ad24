/**
 * Plain-data face tasks for the vision worker pool (piscina). Each takes and returns only structured-
 * clonable data (Uint8Array, numbers, strings, plain objects), and reports face problems as
 * `{ ok: false, error: { kind, message } }` rather than throwing: a thrown FaceError would lose its
 * `kind` crossing the thread boundary. Unexpected errors (bugs) still throw.
 *
 * Usage from the worker module:  export { embedFace, compareFaces, ... } from './faces/worker-tasks';
 * and from the main thread:      pool.run({ image }, { name: 'embedFace' })
 */

import { type FaceErrorData, toFaceErrorData } from './errors';
import * as engine from './face-engine';

export type FaceTaskFailure = { ok: false; error: FaceErrorData };

export type EmbedFaceTaskResult = ({ ok: true } & engine.FaceEmbedding) | FaceTaskFailure;
export type CompareFacesTaskResult = ({ ok: true } & engine.FaceComparison) | FaceTaskFailure;
export type CompareToDescriptorTaskResult =
  ({ ok: true } & Awaited<ReturnType<typeof engine.compareFaceToDescriptor>>) | FaceTaskFailure;
export type CheckFaceQualityTaskResult = ({ ok: true } & engine.CaptureCheck) | FaceTaskFailure;

async function settle<T extends object>(
  fn: () => Promise<T>,
): Promise<({ ok: true } & T) | FaceTaskFailure> {
  try {
    return { ok: true, ...(await fn()) };
  } catch (error) {
    return { ok: false, error: toFaceErrorData(error) };
  }
}

/** Loads the face models and warms every network once (~1-2 s); returns the time taken, ms. */
export function warmUpFaces(): Promise<number> {
  return engine.warmUpFaceEngine();
}

/** Descriptor of the one face in the photo (stored at enrolment). `antispoof` for live captures. */
export function embedFace({
  image,
  antispoof = false,
  requireQuality = false,
}: {
  image: Uint8Array;
  antispoof?: boolean;
  requireQuality?: boolean;
}): Promise<EmbedFaceTaskResult> {
  return settle(() => engine.embedFace(image, { antispoof, requireQuality }));
}

/** Two photos, one face each: distance, matchScore (0..100) and the decision at 70. */
export function compareFaces({
  a,
  b,
}: {
  a: Uint8Array;
  b: Uint8Array;
}): Promise<CompareFacesTaskResult> {
  return settle(() => engine.compareFaces(a, b));
}

/** A live photo against a stored descriptor (number[] of 128). */
export function compareFaceToDescriptor({
  image,
  descriptor,
  antispoof = false,
}: {
  image: Uint8Array;
  descriptor: number[];
  antispoof?: boolean;
}): Promise<CompareToDescriptorTaskResult> {
  return settle(() => engine.compareFaceToDescriptor(image, descriptor, { antispoof }));
}

/**
 * Capture check: `ok` is the task outcome; the verdict is `quality.ok` with `quality.issues` and
 * `quality.message` for the guard. Includes the passive anti-spoof scores (advisory). Never throws for no face / many faces:
 * those are quality issues here.
 */
export function checkFaceQuality({
  image,
}: {
  image: Uint8Array;
}): Promise<CheckFaceQualityTaskResult> {
  return settle(() => engine.checkFaceQuality(image));
}
