export type VisionInputErrorKind =
  'empty' | 'too_large' | 'unsupported_image' | 'too_many_pixels' | 'unknown_type';

/**
 * What a person is told when the image library cannot decode an upload. The library's own words
 * (`VipsJpeg: Corrupt JPEG data: …`) go in `detail`, for the logs, never in the message.
 */
export const DAMAGED_IMAGE_MESSAGE =
  'Failed to process image: the file is damaged or incomplete. Please try again.';

/**
 * Bad input from the caller. The server maps it to a 4xx; it never takes a worker thread down.
 * `message` is for the person who sent the image; `detail` (optional) is for the logs.
 */
export class VisionInputError extends Error {
  override readonly name = 'VisionInputError';
  constructor(
    readonly kind: VisionInputErrorKind,
    message: string,
    readonly detail?: string,
  ) {
    super(message);
  }
}

export function isVisionInputError(error: unknown): error is VisionInputError {
  return error instanceof VisionInputError;
}
