import type { Rect } from './guide';

/** JPEG quality of captures: sharp enough for barcodes and small print. */
const JPEG_QUALITY = 0.92;

/**
 * The current video frame (or `region` of it) as a JPEG data URL (spec §9). Throws when the
 * browser cannot draw the frame.
 */
export function captureFrame(video: HTMLVideoElement, region: Rect | null): string {
  const source = region ?? { x: 0, y: 0, width: video.videoWidth, height: video.videoHeight };
  if (source.width <= 0 || source.height <= 0) throw new Error('The camera has no picture yet');
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(source.width);
  canvas.height = Math.round(source.height);
  const context = canvas.getContext('2d');
  if (!context) throw new Error('This browser cannot capture a picture');
  context.drawImage(
    video,
    source.x,
    source.y,
    source.width,
    source.height,
    0,
    0,
    canvas.width,
    canvas.height,
  );
  return canvas.toDataURL('image/jpeg', JPEG_QUALITY);
}
