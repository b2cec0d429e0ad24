/**
 * Generated "small face in a large photo" images: a face photo cut around its face and pasted, scaled so
 * that the face box is a given share of the width, into a large synthetic background (blurred noise,
 * a gradient and a few shapes: texture for the detectors to reject, no face). Built in memory; nothing
 * is written into the repository.
 */

import sharp from 'sharp';

export type Box = { x: number; y: number; width: number; height: number };

export type SmallFaceOptions = {
  /** Canvas size. Default 4000 x 3000 (a 12 MP phone photo). */
  width?: number;
  height?: number;
  /** Face box width as a share of the canvas width, e.g. 0.02. */
  faceFraction: number;
  /** Where the face's centre goes, as shares of the canvas. Default (0.62, 0.41): off-centre. */
  at?: { x: number; y: number };
  /** JPEG quality of the result. Default 90. */
  quality?: number;
};

/** A deterministic, face-free background of the given size (JPEG-ready raw RGB pipeline). */
export async function syntheticBackground(width: number, height: number): Promise<Buffer> {
  const w = Math.max(64, Math.round(width / 8));
  const h = Math.max(48, Math.round(height / 8));
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#4a5a6a"/><stop offset="0.6" stop-color="#9a9080"/><stop offset="1" stop-color="#3c3a36"/>
    </linearGradient></defs>
    <rect width="${w}" height="${h}" fill="url(#g)"/>
    <rect x="${0.08 * w}" y="${0.62 * h}" width="${0.3 * w}" height="${0.2 * h}" fill="#d8d8d0"/>
    <rect x="${0.7 * w}" y="${0.1 * h}" width="${0.12 * w}" height="${0.5 * h}" fill="#2a3440"/>
    <circle cx="${0.45 * w}" cy="${0.8 * h}" r="${0.07 * h}" fill="#b89a5c"/>
  </svg>`;
  // The SVG rasterises with an alpha channel: dropped, so the bytes line up with the RGB noise
  // (read as RGB before, the frame was scrambled grey stripes instead of this scene).
  const base = await sharp(Buffer.from(svg)).resize(width, height).removeAlpha().raw().toBuffer();
  // Fine sensor-like noise over the whole frame, lightly blurred.
  const noise = await sharp({
    create: {
      width,
      height,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 18 },
    },
  })
    .blur(1.2)
    .raw()
    .toBuffer();
  const out = Buffer.alloc(base.length);
  for (let i = 0; i < out.length; i++)
    out[i] = Math.max(0, Math.min(255, base[i]! + noise[i]! - 128));
  return sharp(out, { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 1 })
    .toBuffer();
}

/**
 * `photo` cut around `faceBox` (the box grown 2.2x, clipped to the photo), scaled so the face box is
 * `faceFraction` of the canvas width, pasted into a synthetic background. Returns the JPEG and the face
 * box in the result's pixels.
 */
export async function smallFaceInLargePhoto(
  photo: Uint8Array,
  faceBox: Box,
  options: SmallFaceOptions,
  background?: Uint8Array,
): Promise<{ image: Buffer; box: Box }> {
  const width = options.width ?? 4000;
  const height = options.height ?? 3000;
  const at = options.at ?? { x: 0.62, y: 0.41 };
  const src = sharp(photo).rotate();
  const meta = await sharp(await src.toBuffer()).metadata();
  const pw = meta.width ?? 0;
  const ph = meta.height ?? 0;
  const cx = faceBox.x + faceBox.width / 2;
  const cy = faceBox.y + faceBox.height / 2;
  const half = 1.1 * Math.max(faceBox.width, faceBox.height);
  const left = Math.max(0, Math.floor(cx - half));
  const top = Math.max(0, Math.floor(cy - half));
  const right = Math.min(pw, Math.ceil(cx + half));
  const bottom = Math.min(ph, Math.ceil(cy + half));
  const scale = (options.faceFraction * width) / faceBox.width;
  const cutW = Math.max(1, Math.round((right - left) * scale));
  const cutH = Math.max(1, Math.round((bottom - top) * scale));
  const cut = await sharp(photo)
    .rotate()
    .extract({ left, top, width: right - left, height: bottom - top })
    .resize(cutW, cutH, { fit: 'fill' })
    .toColourspace('srgb')
    .png()
    .toBuffer();
  const pasteLeft = Math.round(at.x * width - (cx - left) * scale);
  const pasteTop = Math.round(at.y * height - (cy - top) * scale);
  const image = await sharp(background ?? (await syntheticBackground(width, height)))
    .composite([{ input: cut, left: pasteLeft, top: pasteTop }])
    .jpeg({ quality: options.quality ?? 90 })
    .toBuffer();
  return {
    image,
    box: {
      x: pasteLeft + (faceBox.x - left) * scale,
      y: pasteTop + (faceBox.y - top) * scale,
      width: faceBox.width * scale,
      height: faceBox.height * scale,
    },
  };
}
