/**
 * Typed face errors. A face comparison never returns a score when a face was not found: "no face" and
 * "more than one face" are errors, never a match (the trap is deepface's old `verify()` that treated
 * a missing face as a pass).
 *
 * Pure module: no Node-only imports.
 */

export const FACE_ERROR_KINDS = [
  'no_face',
  'multiple_faces',
  'low_quality',
  'invalid_image',
  'invalid_descriptor',
] as const;
export type FaceErrorKind = (typeof FACE_ERROR_KINDS)[number];

/** Plain-data form of a FaceError: what crosses a worker-thread boundary or goes into JSON. */
export type FaceErrorData = {
  kind: FaceErrorKind;
  message: string;
  /** For `low_quality`: the failed quality checks, most important first. */
  issues?: string[];
  /** For the logs only (the image library's words for an undecodable file); never shown. */
  detail?: string;
};

export const FACE_ERROR_MESSAGES: Record<FaceErrorKind, string> = {
  no_face: 'No face found in the image. Ask the driver to face the camera and retake the photo.',
  multiple_faces:
    'More than one face in the image. Make sure only the driver is in the frame and retake the photo.',
  low_quality: 'The face photo is not good enough to use. Retake the photo.',
  invalid_image: 'The file could not be read as an image (JPEG, PNG or WebP).',
  invalid_descriptor: 'The stored face descriptor is not valid (expected 128 finite numbers).',
};

export class FaceError extends Error {
  override readonly name = 'FaceError';
  readonly kind: FaceErrorKind;
  readonly issues: string[] | undefined;
  readonly detail: string | undefined;

  constructor(
    kind: FaceErrorKind,
    message: string = FACE_ERROR_MESSAGES[kind],
    issues?: string[],
    detail?: string,
  ) {
    super(message);
    this.kind = kind;
    this.issues = issues;
    this.detail = detail;
  }

  toData(): FaceErrorData {
    return {
      kind: this.kind,
      message: this.message,
      ...(this.issues ? { issues: this.issues } : {}),
      ...(this.detail ? { detail: this.detail } : {}),
    };
  }

  static fromData(data: FaceErrorData): FaceError {
    return new FaceError(data.kind, data.message, data.issues, data.detail);
  }
}

export function isFaceError(error: unknown): error is FaceError {
  return error instanceof FaceError;
}

/** Turns any thrown value into plain error data; unexpected errors are re-thrown (they are bugs). */
export function toFaceErrorData(error: unknown): FaceErrorData {
  if (isFaceError(error)) return error.toData();
  throw error;
}
