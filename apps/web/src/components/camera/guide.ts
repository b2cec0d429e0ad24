/**
 * Guide frames drawn over the camera preview, and where they fall in the captured video frame.
 * Cropping a capture to its guide (plus a margin) gives the reading engines the subject alone.
 */

export type GuideShape = 'wide' | 'card' | 'page' | 'oval' | 'none';

export type Size = { width: number; height: number };
export type Rect = { x: number; y: number; width: number; height: number };

/** Width ÷ height of each guide. `card` is the ID-1 card format, 85.6 × 54 mm. */
export const GUIDE_ASPECT: Record<Exclude<GuideShape, 'none'>, number> = {
  wide: 3.2,
  card: 85.6 / 54,
  page: 0.72,
  oval: 0.75,
};

/** Share of the preview a guide may use at most (width, height). */
const GUIDE_EXTENT: Record<Exclude<GuideShape, 'none'>, [number, number]> = {
  wide: [0.9, 0.4],
  card: [0.85, 0.7],
  page: [0.8, 0.8],
  oval: [0.6, 0.6],
};

/** Extra room kept around the guide when cropping, as a share of the guide's size. */
export const CROP_MARGIN = 0.12;

/** Guides whose captures are cropped; a face keeps its surroundings for the face engine. */
export function cropsToGuide(shape: GuideShape): boolean {
  return shape === 'wide' || shape === 'card' || shape === 'page';
}

/** The guide's box, centred in a preview of `container` size. */
export function guideBox(shape: GuideShape, container: Size): Rect | null {
  if (shape === 'none' || container.width <= 0 || container.height <= 0) return null;
  const aspect = GUIDE_ASPECT[shape];
  const [maxWidthShare, maxHeightShare] = GUIDE_EXTENT[shape];
  const width = Math.min(
    container.width * maxWidthShare,
    container.height * maxHeightShare * aspect,
  );
  const height = width / aspect;
  return {
    x: (container.width - width) / 2,
    y: (container.height - height) / 2,
    width,
    height,
  };
}

/**
 * How a video of `video` size is drawn to fill `container` with `object-fit: cover`: scaled by
 * `scale` and shifted by `offsetX`/`offsetY` (negative: that much is cut off).
 */
export function coverTransform(container: Size, video: Size) {
  const scale = Math.max(container.width / video.width, container.height / video.height);
  return {
    scale,
    offsetX: (container.width - video.width * scale) / 2,
    offsetY: (container.height - video.height * scale) / 2,
  };
}

/**
 * The region of the video frame (in video pixels) under the guide, grown by `margin` of the
 * guide's size on every side and kept inside the frame. Null when the whole frame should be kept.
 */
export function guideRegionInFrame(
  shape: GuideShape,
  container: Size,
  video: Size,
  margin = CROP_MARGIN,
): Rect | null {
  if (!cropsToGuide(shape) || video.width <= 0 || video.height <= 0) return null;
  const box = guideBox(shape, container);
  if (!box) return null;
  const { scale, offsetX, offsetY } = coverTransform(container, video);
  const x = (box.x - offsetX) / scale;
  const y = (box.y - offsetY) / scale;
  const width = box.width / scale;
  const height = box.height / scale;
  const left = Math.max(0, Math.floor(x - width * margin));
  const top = Math.max(0, Math.floor(y - height * margin));
  const right = Math.min(video.width, Math.ceil(x + width * (1 + margin)));
  const bottom = Math.min(video.height, Math.ceil(y + height * (1 + margin)));
  return { x: left, y: top, width: right - left, height: bottom - top };
}
