import { type VisionEngine, type VisionEngineOptions, createVisionEngine } from '@boomgate/vision';

/** The engine calls the server makes; tests and the lazy wrapper implement exactly these. */
export type GateVisionEngine = Pick<
  VisionEngine,
  'read' | 'compareFaces' | 'compareFaceToDescriptor' | 'embedFace' | 'checkFaceQuality' | 'close'
>;

/**
 * Starts the worker threads (and loads models) on first use, not at start-up: `npm start` answers
 * at once, and processes that never read an image (most test files) never pay for the engine.
 */
export function createLazyVisionEngine(options: VisionEngineOptions): GateVisionEngine {
  let engine: VisionEngine | undefined;
  const get = () => (engine ??= createVisionEngine(options));
  return {
    read: (...args) => get().read(...args),
    compareFaces: (...args) => get().compareFaces(...args),
    compareFaceToDescriptor: (...args) => get().compareFaceToDescriptor(...args),
    embedFace: (...args) => get().embedFace(...args),
    checkFaceQuality: (...args) => get().checkFaceQuality(...args),
    close: async () => {
      await engine?.close();
    },
  };
}
