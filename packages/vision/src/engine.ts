import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

import { Piscina } from 'piscina';

import { type AiReader, OCR_ONLY_TYPES, createAiReader, shouldAskAi } from './ai/openai-provider';
import { confirmedByAgreement } from './documents/field-agreement';
import type { SadlKeys } from './documents/sadl-keys';
import { VisionInputError, type VisionInputErrorKind } from './errors';
import { assertDocumentType } from './document-type';
import type {
  CheckFaceQualityTaskResult,
  CompareFacesTaskResult,
  CompareToDescriptorTaskResult,
  EmbedFaceTaskResult,
} from './faces/worker-tasks';
import type { AiProviderOptions, Barcode, DocumentType, ReadResult } from './types';
import type { TaskRequest, TaskResponse, WorkerInit } from './worker';

export type VisionEngineOptions = {
  /** Worker threads. Default: cores − 1 (at least 1), so the event loop keeps a core. */
  threads?: number;
  /** Optional OpenAI-compatible reader (fallback for weak OCR, or primary). Off when absent. */
  ai?: AiProviderOptions;
  /** SA driving-licence keys; the published keys by default (tests pass their own). */
  sadlKeys?: SadlKeys;
  /**
   * A task still running after this long is rejected. Piscina then terminates that thread and starts a
   * fresh one (models reload lazily), so keep it generous; bad input never gets here.
   */
  taskTimeoutMs?: number;
  /** Path of the worker module, when the default lookup does not fit (e.g. an unusual bundle layout). */
  workerFile?: string;
};

export type ReadOptions = { signal?: AbortSignal };

const require = createRequire(import.meta.url);

/**
 * The worker runs as TypeScript under tsx (no build step): the same files serve the server (which
 * runs under tsx too), vitest and the CLI. A compiled copy (`worker.js`) runs without the loader, and
 * a server bundled into one file finds the worker through the package export `@boomgate/vision/worker`.
 */
function workerSpec(override?: string): { filename: string; execArgv: string[] } {
  const tsxArgs = () => ['--import', pathToFileURL(require.resolve('tsx')).href];
  const spec = (filename: string) => ({
    filename,
    execArgv: /\.(c|m)?ts$/.test(filename) ? tsxArgs() : [],
  });
  if (override) return spec(override.startsWith('file:') ? override : pathToFileURL(override).href);
  const here = import.meta.url;
  if (/\/engine\.ts$/.test(here)) return spec(new URL('./worker.ts', here).href);
  if (/\/engine\.js$/.test(here)) return spec(new URL('./worker.js', here).href);
  return spec(pathToFileURL(require.resolve('@boomgate/vision/worker')).href);
}

export function createVisionEngine(options: VisionEngineOptions = {}) {
  const cores = availableParallelism();
  const threads = Math.max(1, options.threads ?? cores - 1);
  const workerData: WorkerInit = {
    intraOpThreads: Math.max(1, Math.floor(cores / threads)),
    ...(options.sadlKeys ? { sadlKeys: options.sadlKeys } : {}),
  };
  const { filename, execArgv } = workerSpec(options.workerFile);
  const pool = new Piscina({
    filename,
    execArgv,
    workerData,
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: 60 * 60_000,
    // Bounded queue: a burst of uploads waits rather than exhausting memory.
    // When full, `read` rejects with piscina's "Task queue is at limit" error: answer 503.
    maxQueue: 64 * threads,
  });
  const ai: AiReader | null = options.ai ? createAiReader(options.ai) : null;
  const aiMinConfidence = options.ai?.minConfidence ?? 0.6;
  const aiMode = options.ai?.mode ?? 'fallback';

  async function run<T>(task: string, payload: unknown, signal?: AbortSignal): Promise<T> {
    const timeout = options.taskTimeoutMs ? AbortSignal.timeout(options.taskTimeoutMs) : undefined;
    const signals = [signal, timeout].filter((s): s is AbortSignal => !!s);
    const request: TaskRequest = { task, payload };
    const response = (await pool.run(request, {
      ...(signals.length
        ? { signal: signals.length === 1 ? signals[0]! : AbortSignal.any(signals) }
        : {}),
    })) as TaskResponse;
    if (response.ok) return response.value as T;
    if (response.error.isInputError) {
      throw new VisionInputError(
        response.error.kind as VisionInputErrorKind,
        response.error.message,
        response.error.detail,
      );
    }
    throw new Error(`Vision task ${task} failed: ${response.error.message}`);
  }

  return {
    /** Reads one document. Bad input rejects with VisionInputError; nothing found resolves `ok: false`. */
    async read(
      type: DocumentType,
      image: Uint8Array,
      readOptions: ReadOptions = {},
    ): Promise<ReadResult> {
      assertDocumentType(type);
      if (ai && aiMode === 'primary' && OCR_ONLY_TYPES.includes(type)) {
        // No barcode or MRZ can outrank the AI here: ask it first. The image is still checked
        // locally first, so bad input rejects with VisionInputError as it does without the AI.
        await run('checkImage', { image }, readOptions.signal);
        const first = await ai(type, image);
        if (first?.ok) return first;
        return run<ReadResult>('read', { type, image }, readOptions.signal);
      }
      const local = await run<ReadResult>('read', { type, image }, readOptions.signal);
      if (!ai || !shouldAskAi(local, aiMinConfidence, aiMode)) return local;
      const remote = await ai(type, image);
      if (!remote || !remote.ok) return local;
      return {
        ...remote,
        // What the local reading also read is confirmed by two independent readings.
        uncertain: local.ok
          ? confirmedByAgreement(remote.uncertain, remote.fields, local.fields)
          : (remote.uncertain ?? []),
        alternatives: local.ok
          ? [{ value: JSON.stringify(local.fields), confidence: local.confidence }]
          : [],
      };
    },
    /** Every barcode in the image (PDF417, QR, 1-D...), exact bytes included. */
    readBarcodes(image: Uint8Array, readOptions: ReadOptions = {}): Promise<Barcode[]> {
      return run<Barcode[]>('readBarcodes', { image }, readOptions.signal);
    },
    // Face tasks: implemented in src/faces/worker-tasks.ts, dispatched by name in the worker.
    embedFace(
      image: Uint8Array,
      faceOptions: { antispoof?: boolean; requireQuality?: boolean } = {},
    ) {
      return run<EmbedFaceTaskResult>('embedFace', { image, ...faceOptions });
    },
    compareFaces(a: Uint8Array, b: Uint8Array) {
      return run<CompareFacesTaskResult>('compareFaces', { a, b });
    },
    compareFaceToDescriptor(
      image: Uint8Array,
      descriptor: number[],
      faceOptions: { antispoof?: boolean } = {},
    ) {
      return run<CompareToDescriptorTaskResult>('compareFaceToDescriptor', {
        image,
        descriptor,
        ...faceOptions,
      });
    },
    checkFaceQuality(image: Uint8Array) {
      return run<CheckFaceQualityTaskResult>('checkFaceQuality', { image });
    },
    /** Runs a named worker task. */
    runTask<T>(task: string, payload: unknown, readOptions: ReadOptions = {}): Promise<T> {
      return run<T>(task, payload, readOptions.signal);
    },
    /** Starts every thread and loads its barcode reader and PaddleOCR models; returns the time it took. */
    async warmUp(): Promise<number> {
      const started = performance.now();
      await Promise.all(Array.from({ length: threads }, () => run('warmUp', null)));
      return performance.now() - started;
    },
    get threads() {
      return threads;
    },
    close(): Promise<void> {
      return pool.destroy();
    },
  };
}

export type VisionEngine = ReturnType<typeof createVisionEngine>;
