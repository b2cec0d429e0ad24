import { describe, expect, it } from 'vitest';

import { CAMERA_ERRORS, cameraConstraints, cameraErrorMessage } from './use-camera-stream';

const named = (name: string) => Object.assign(new Error('x'), { name });

describe('cameraErrorMessage (spec §8)', () => {
  it.each([
    ['NotAllowedError', CAMERA_ERRORS.permissionDenied],
    ['NotFoundError', CAMERA_ERRORS.noCamera],
    ['OverconstrainedError', CAMERA_ERRORS.noCamera],
    ['NotReadableError', CAMERA_ERRORS.unavailable],
    ['AbortError', CAMERA_ERRORS.failed],
  ])('%s → the matching sentence', (name, message) => {
    expect(cameraErrorMessage(named(name))).toBe(message);
  });

  it('falls back for anything else', () => {
    expect(cameraErrorMessage('boom')).toBe(
      'Camera access failed. Please enable camera permissions.',
    );
  });

  it('uses the spec sentences word for word', () => {
    expect(CAMERA_ERRORS).toEqual({
      notSupported:
        'Camera access not supported on this browser. Please use a modern browser or upload an image instead.',
      permissionDenied:
        'Camera permission denied. Please allow camera access in your browser settings and refresh the page.',
      noCamera: 'No camera found on this device. Please use the upload option instead.',
      unavailable:
        'Unable to access camera. Please check your device settings or use the upload option.',
      failed: 'Camera access failed. Please enable camera permissions.',
    });
  });
});

describe('cameraConstraints (spec §9)', () => {
  it('asks for 1920×1080 ideally from the requested camera', () => {
    expect(cameraConstraints('environment')).toEqual({
      audio: false,
      video: { facingMode: 'environment', width: { ideal: 1920 }, height: { ideal: 1080 } },
    });
  });
});
