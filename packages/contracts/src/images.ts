import { z } from 'zod';

/**
 * An image sent by the browser: a data URL (`data:image/jpeg;base64,…`, what the camera capture
 * produces) or bare base64. Size and type are checked on the server from the bytes themselves.
 */
export const ImagePayloadSchema = z
  .string()
  .min(1, 'Image is required')
  .max(14_100_000, 'Please upload an image smaller than 10MB.');

/** Images come back as URLs of the authorised image route, never as inline data. */
export const ImageUrlSchema = z.string();
