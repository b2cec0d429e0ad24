import type { SadlKeys } from '../documents/sadl-keys';

/** Per-thread settings every reader gets. */
export type ReaderContext = {
  /** ONNX Runtime intra-op threads for this worker. */
  intraOpThreads: number;
  /** SA driving-licence keys (the published ones in production, test keys in tests). */
  sadlKeys?: SadlKeys;
  /** "Now", for century rules of dates (injectable for tests). */
  now?: Date;
};
