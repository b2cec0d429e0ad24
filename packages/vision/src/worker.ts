/**
 * Runs inside a piscina worker thread. Models load lazily, once per thread, on first use. Tasks are
 * named; every result is plain data, and every failure comes back as data (a thrown error would lose
 * its class crossing the thread boundary, and a crash would cost the pool a thread).
 *
 * Built-in tasks: `read`, `readBarcodes`, `checkImage`, `warmUp`. Any other task name is looked up in
 * `./faces/worker-tasks` (owned by the faces work), so face tasks need no change here.
 */
import { workerData } from 'node:worker_threads';

// A static import: tsx does not rewrite dynamic imports inside worker threads ("Unknown file
// extension .ts"). It is cheap: the face engine loads tfjs and its models on first use.
import * as faceTaskModule from './faces/worker-tasks';

import type { SadlKeys } from './documents/sadl-keys';
import { VisionInputError } from './errors';
import { loadZxing } from './barcode/zxing';
import { decodeImage } from './image/decode-image';
import { loadPaddle } from './ocr/paddle';
import { readBarcodesFromBytes, readDocument } from './readers/read-document';
import type { ReaderContext } from './readers/reader-context';
import type { DocumentType } from './types';

export type WorkerInit = { intraOpThreads?: number; sadlKeys?: SadlKeys };
export type TaskRequest = { task: string; payload: unknown };
export type TaskError = { kind: string; message: string; isInputError: boolean; detail?: string };
export type TaskResponse = { ok: true; value: unknown } | { ok: false; error: TaskError };

const init = (workerData ?? {}) as WorkerInit;
const ctx: ReaderContext = {
  intraOpThreads: init.intraOpThreads ?? 1,
  ...(init.sadlKeys ? { sadlKeys: init.sadlKeys } : {}),
};

type FaceTasks = Record<string, (payload: unknown) => Promise<unknown>>;

async function runNamedTask(task: string, payload: unknown): Promise<unknown> {
  switch (task) {
    case 'read': {
      const { type, image } = payload as { type: DocumentType; image: Uint8Array };
      return readDocument(type, image, ctx);
    }
    case 'checkImage': {
      // Decodes and drops the pixels: the checks `read` makes before any reader runs.
      const { image } = payload as { image: Uint8Array };
      await decodeImage(image);
      return true;
    }
    case 'readBarcodes': {
      const { image } = payload as { image: Uint8Array };
      return readBarcodesFromBytes(image);
    }
    case 'warmUp': {
      // Load the engines every request needs first: the barcode reader and PaddleOCR.
      await loadZxing();
      await loadPaddle(ctx.intraOpThreads);
      return 'ready';
    }
    default: {
      const fn = (faceTaskModule as unknown as FaceTasks)[task];
      if (typeof fn !== 'function') throw new Error(`Unknown vision task "${task}".`);
      return fn(payload);
    }
  }
}

export default async function dispatch({ task, payload }: TaskRequest): Promise<TaskResponse> {
  try {
    return { ok: true, value: await runNamedTask(task, payload) };
  } catch (error) {
    if (error instanceof VisionInputError) {
      return {
        ok: false,
        error: {
          kind: error.kind,
          message: error.message,
          isInputError: true,
          ...(error.detail ? { detail: error.detail } : {}),
        },
      };
    }
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, error: { kind: 'internal', message, isInputError: false } };
  }
}
