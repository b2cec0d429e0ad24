import sharp from 'sharp';
import { describe, expect, it } from 'vitest';

import { decodeImage, toGrey } from '../image/decode-image';
import { renderPdf417 } from '../testing/barcode-fixture';

import { estimateSkewDegrees, findBarcodeRegions } from './regions';

async function rotatedSymbol(degrees: number) {
  const png = await sharp(await renderPdf417('SKEW TEST 0123456789 ABCDEFGHIJ', { scale: 3 }))
    .rotate(degrees, { background: '#ffffff' })
    .png()
    .toBuffer();
  return toGrey(await decodeImage(png));
}

describe('estimateSkewDegrees', () => {
  it.each([-5, 0, 4])('measures the bar angle of a symbol rotated by %d°', async (degrees) => {
    const skew = estimateSkewDegrees(await rotatedSymbol(degrees));

    expect(Math.abs(skew - degrees)).toBeLessThan(1);
  });
});

describe('findBarcodeRegions', () => {
  it('finds the symbol in a larger empty frame', async () => {
    const symbol = await renderPdf417('REGION TEST', { scale: 2 });
    const frame = await sharp({
      create: { width: 1200, height: 800, channels: 3, background: '#d0d0d0' },
    })
      .composite([{ input: symbol, left: 700, top: 500 }])
      .png()
      .toBuffer();

    const [region] = findBarcodeRegions(toGrey(await decodeImage(frame)));

    expect(region!.left).toBeLessThanOrEqual(700);
    expect(region!.left + region!.width).toBeGreaterThan(700);
    expect(region!.top).toBeLessThanOrEqual(500);
  });
});
