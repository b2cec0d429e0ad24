/** PDF417 test images made by the project: bwip-js renders, then sharp makes them look photographed. */
import bwipjs from 'bwip-js/node';
import sharp from 'sharp';

/** A clean PDF417 PNG. `payload` as bytes keeps values >= 0x80 exact (binarytext). */
export async function renderPdf417(
  payload: string | Uint8Array,
  { scale = 2, columns = 6 }: { scale?: number; columns?: number } = {},
): Promise<Buffer> {
  const text = typeof payload === 'string' ? payload : Buffer.from(payload).toString('latin1');
  // columns/rowmult are BWIPP options the typings do not list.
  const options = {
    bcid: 'pdf417',
    text,
    binarytext: typeof payload !== 'string',
    scale,
    columns,
    rowmult: 3,
    paddingwidth: 4,
    paddingheight: 4,
    backgroundcolor: 'FFFFFF',
  } as unknown as Parameters<typeof bwipjs.toBuffer>[0];
  return bwipjs.toBuffer(options);
}

/** Deterministic grey noise. */
function noise(width: number, height: number, seed: number, amplitude: number): Buffer {
  const out = Buffer.alloc(width * height);
  let s = seed >>> 0 || 1;
  for (let i = 0; i < out.length; i++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    out[i] = 128 + (((s >>> 0) % (2 * amplitude + 1)) - amplitude);
  }
  return out;
}

export type PhotoOptions = {
  width?: number;
  height?: number;
  /** Where the symbol's centre sits, as fractions of the frame. */
  at?: [number, number];
  rotateDegrees?: number;
  blurSigma?: number;
  jpegQuality?: number;
  /** Scale of the symbol relative to its render. */
  symbolScale?: number;
  seed?: number;
};

/**
 * Places a rendered symbol on a light "card" in a noisy frame, slightly rotated and blurred, saved
 * as JPEG: a stand-in for a phone photo of a disc or ID card.
 */
export async function makePhotoLike(png: Buffer, options: PhotoOptions = {}): Promise<Buffer> {
  const {
    width = 1920,
    height = 1080,
    at = [0.5, 0.5],
    rotateDegrees = 3,
    blurSigma = 0.7,
    jpegQuality = 80,
    symbolScale = 1.5,
    seed = 7,
  } = options;
  const meta = await sharp(png).metadata();
  const symbol = await sharp(png)
    .resize({ width: Math.round(meta.width * symbolScale) })
    .extend({ top: 40, bottom: 40, left: 40, right: 40, background: '#f4f1ea' })
    .rotate(rotateDegrees, { background: '#f4f1ea' })
    .png()
    .toBuffer();
  const sm = await sharp(symbol).metadata();
  const left = Math.max(0, Math.min(width - sm.width, Math.round(width * at[0] - sm.width / 2)));
  const top = Math.max(0, Math.min(height - sm.height, Math.round(height * at[1] - sm.height / 2)));
  const background = await sharp(noise(width, height, seed, 40), {
    raw: { width, height, channels: 1 },
  })
    .blur(3)
    .toColourspace('srgb')
    .png()
    .toBuffer();
  let pipeline = sharp(background).composite([{ input: symbol, left, top }]);
  if (blurSigma > 0.3) pipeline = sharp(await pipeline.png().toBuffer()).blur(blurSigma);
  return pipeline.jpeg({ quality: jpegQuality }).toBuffer();
}
