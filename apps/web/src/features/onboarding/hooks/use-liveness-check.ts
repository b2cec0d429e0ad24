import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';

import { captureFrame } from '@/components/camera/capture-frame';

import type { FaceLandmarkDetector } from '../liveness/face-landmarks';
import {
  LIVENESS_TIMING,
  type LivenessOutcome,
  type LivenessProgress,
  runLivenessCheck,
} from '../liveness/liveness-check';

export type FaceModelState =
  { status: 'loading' } | { status: 'ready'; detector: FaceLandmarkDetector } | { status: 'error' };

export type LivenessCheckState =
  { status: 'idle' } | LivenessProgress | LivenessOutcome | { status: 'error' };

/**
 * The liveness check on a live `<video>`: loads the face model when mounted (its code and weights
 * are fetched only now), then `start()` runs the four prompts on the video's frames. Unmounting or
 * `reset()` stops a running check.
 */
export function useLivenessCheck(videoRef: RefObject<HTMLVideoElement | null>) {
  const [model, setModel] = useState<FaceModelState>({ status: 'loading' });
  const [check, setCheck] = useState<LivenessCheckState>({ status: 'idle' });
  const [loadAttempt, setLoadAttempt] = useState(0);
  const running = useRef<AbortController | null>(null);

  useEffect(() => {
    let isCurrent = true;
    import('../liveness/face-landmarks')
      .then((module) => module.loadFaceLandmarkDetector())
      .then(
        (detector) => {
          if (isCurrent) setModel({ status: 'ready', detector });
        },
        () => {
          if (isCurrent) setModel({ status: 'error' });
        },
      );
    return () => {
      isCurrent = false;
    };
  }, [loadAttempt]);

  useEffect(() => () => running.current?.abort(), []);

  const start = useCallback(() => {
    const video = videoRef.current;
    if (model.status !== 'ready' || !video) return;
    running.current?.abort();
    const controller = new AbortController();
    running.current = controller;
    const { detector } = model;
    runLivenessCheck({
      source: {
        detectLandmarks: () => detector.detect(video),
        capturePhoto: () => captureFrame(video, null),
        captureSampledFrame: () => detector.captureDetectedFrame(),
      },
      signal: controller.signal,
      timing: LIVENESS_TIMING,
      onProgress: (progress) => {
        if (!controller.signal.aborted) setCheck(progress);
      },
    }).then(
      (outcome) => {
        if (!controller.signal.aborted) setCheck(outcome);
      },
      () => {
        if (!controller.signal.aborted) setCheck({ status: 'error' });
      },
    );
  }, [model, videoRef]);

  const reset = useCallback(() => {
    running.current?.abort();
    running.current = null;
    setCheck({ status: 'idle' });
  }, []);

  const retryModel = useCallback(() => {
    setModel({ status: 'loading' });
    setLoadAttempt((attempt) => attempt + 1);
  }, []);

  return { model, check, start, reset, retryModel };
}
