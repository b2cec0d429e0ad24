import sharp from 'sharp';

/** A small real JPEG as the browser's camera capture sends it: a data URL. */
export async function aJpegDataUrl({
  width = 64,
  height = 48,
  color = '#4a7',
} = {}): Promise<string> {
  const bytes = await sharp({ create: { width, height, channels: 3, background: color } })
    .jpeg()
    .toBuffer();
  return `data:image/jpeg;base64,${bytes.toString('base64')}`;
}
