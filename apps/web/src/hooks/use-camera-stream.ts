import { useEffect, useState } from 'react';

export type FacingMode = 'environment' | 'user';

/** Spec §8: what the camera overlay says when the camera cannot be used. */
export const CAMERA_ERRORS = {
  notSupported:
    'Camera access not supported on this browser. Please use a modern browser or upload an image instead.',
  permissionDenied:
    'Camera permission denied. Please allow camera access in your browser settings and refresh the page.',
  noCamera: 'No camera found on this device. Please use the upload option instead.',
  unavailable:
    'Unable to access camera. Please check your device settings or use the upload option.',
  failed: 'Camera access failed. Please enable camera permissions.',
} as const;

/** The spec §8 sentence for a getUserMedia failure. */
export function cameraErrorMessage(error: unknown): string {
  const name =
    error && typeof error === 'object' && 'name' in error && typeof error.name === 'string'
      ? error.name
      : '';
  switch (name) {
    case 'NotAllowedError':
    case 'PermissionDeniedError':
    case 'SecurityError':
      return CAMERA_ERRORS.permissionDenied;
    case 'NotFoundError':
    case 'DevicesNotFoundError':
    case 'OverconstrainedError':
    case 'ConstraintNotSatisfiedError':
      return CAMERA_ERRORS.noCamera;
    case 'NotReadableError':
    case 'TrackStartError':
      return CAMERA_ERRORS.unavailable;
    default:
      return CAMERA_ERRORS.failed;
  }
}

export function isCameraSupported(): boolean {
  return (
    typeof navigator !== 'undefined' && typeof navigator.mediaDevices?.getUserMedia === 'function'
  );
}

/** Spec §9: ideal 1920×1080 from the requested camera. */
export function cameraConstraints(facingMode: FacingMode): MediaStreamConstraints {
  return {
    audio: false,
    video: { facingMode, width: { ideal: 1920 }, height: { ideal: 1080 } },
  };
}

function stopStream(stream: MediaStream) {
  for (const track of stream.getTracks()) track.stop();
}

type StreamResult = { facingMode: FacingMode; stream: MediaStream | null; error: string | null };

/**
 * A live camera stream while mounted and `enabled`. Switching `facingMode` reopens the camera;
 * unmounting (or disabling) stops every track. Errors come back as spec §8 sentences.
 */
export function useCameraStream({
  enabled,
  facingMode,
}: {
  enabled: boolean;
  facingMode: FacingMode;
}) {
  const supported = isCameraSupported();
  const [result, setResult] = useState<StreamResult | null>(null);

  useEffect(() => {
    if (!enabled || !supported) return;
    let isCurrent = true;
    let opened: MediaStream | null = null;
    navigator.mediaDevices.getUserMedia(cameraConstraints(facingMode)).then(
      (stream) => {
        if (!isCurrent) {
          stopStream(stream);
          return;
        }
        opened = stream;
        setResult({ facingMode, stream, error: null });
      },
      (error: unknown) => {
        if (isCurrent) setResult({ facingMode, stream: null, error: cameraErrorMessage(error) });
      },
    );
    return () => {
      isCurrent = false;
      if (opened) stopStream(opened);
      // Forget the stopped stream, so a quick switch back never shows it.
      setResult(null);
    };
  }, [enabled, supported, facingMode]);

  if (!enabled) return { stream: null, error: null, isStarting: false };
  if (!supported) return { stream: null, error: CAMERA_ERRORS.notSupported, isStarting: false };
  const isForThisCamera = result?.facingMode === facingMode;
  return {
    stream: isForThisCamera ? result.stream : null,
    error: isForThisCamera ? result.error : null,
    isStarting: !isForThisCamera,
  };
}
