export type VisionInputErrorKind =
  'empty' | 'too_large' | 'unsupported_image' | 'too_many_pixels' | 'unknown_type';

/** Bad input from the caller. The server maps it to a 4xx; it never takes a worker thread down. */
export class VisionInputError extends Error {
  override readonly name = 'VisionInputError';
  constructor(
    readonly kind: VisionInputErrorKind,
    message: string,
  ) {
    super(message);
  }
}

export function isVisionInputError(error: unknown): error is VisionInputError {
  return error instanceof VisionInputError;
}
