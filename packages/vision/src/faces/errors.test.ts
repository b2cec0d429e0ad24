import { describe, expect, it } from 'vitest';

import {
  FACE_ERROR_KINDS,
  FACE_ERROR_MESSAGES,
  FaceError,
  isFaceError,
  toFaceErrorData,
} from './errors';

describe('FaceError', () => {
  it('has a readable default message per kind', () => {
    expect(new FaceError('no_face').message).toBe(
      'No face found in the image. Ask the driver to face the camera and retake the photo.',
    );
    for (const kind of FACE_ERROR_KINDS)
      expect(FACE_ERROR_MESSAGES[kind].length).toBeGreaterThan(20);
  });

  it('round-trips through plain data (what crosses a worker thread)', () => {
    const error = new FaceError('low_quality', 'The photo is blurry.', ['blurry']);
    const data = structuredClone(error.toData());
    expect(data).toEqual({
      kind: 'low_quality',
      message: 'The photo is blurry.',
      issues: ['blurry'],
    });
    const back = FaceError.fromData(data);
    expect(back).toBeInstanceOf(FaceError);
    expect(back.kind).toBe('low_quality');
    expect(isFaceError(back)).toBe(true);
  });

  it('turns face errors into data and re-throws anything else', () => {
    expect(toFaceErrorData(new FaceError('multiple_faces'))).toMatchObject({
      kind: 'multiple_faces',
    });
    expect(() => toFaceErrorData(new TypeError('bug'))).toThrow(TypeError);
  });
});
