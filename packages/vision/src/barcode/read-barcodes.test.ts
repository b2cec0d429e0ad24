import { describe, expect, it } from 'vitest';

import { decodeImage } from '../image/decode-image';
import { makePhotoLike, renderPdf417 } from '../testing/barcode-fixture';
import type { Barcode } from '../types';

import { assembleSequences, findBarcodes } from './read-barcodes';

const DISC =
  '%MVL1CC73%0146%4025M007%1%4025013HM0M8%KK10FCGP%DJJ697X%Hatch back / Luikrug%RENAULT%KWID%White / Wit%MEEBBA00900798734%B4DA404E217984%2026-06-30%';

describe('findBarcodes', () => {
  it('decodes a disc PDF417 in a 1080p photo-like frame', async () => {
    const photo = await makePhotoLike(await renderPdf417(DISC), {
      rotateDegrees: 3,
      at: [0.35, 0.6],
    });

    const barcodes = await findBarcodes(await decodeImage(photo), { formats: ['PDF417'] });

    expect(barcodes[0]?.text).toBe(DISC);
  });

  it('climbs the ladder for a symbol rotated past the reader tolerance', async () => {
    const photo = await makePhotoLike(await renderPdf417(DISC), { rotateDegrees: 9 });

    const barcodes = await findBarcodes(await decodeImage(photo), { formats: ['PDF417'] });

    expect(barcodes[0]?.text).toBe(DISC);
  });

  it('returns the exact bytes of a binary payload, bytes >= 0x80 included', async () => {
    const payload = Uint8Array.from({ length: 200 }, (_, i) => (i * 37 + 128) % 256);

    const barcodes = await findBarcodes(
      await decodeImage(await renderPdf417(payload, { columns: 10 })),
    );

    expect(Buffer.from(barcodes[0]!.bytes).equals(Buffer.from(payload))).toBe(true);
  });

  it('returns nothing for an image without a barcode', async () => {
    const photo = await makePhotoLike(await renderPdf417('x'), { symbolScale: 0.05, blurSigma: 4 });

    const barcodes = await findBarcodes(await decodeImage(photo), {
      formats: ['PDF417'],
      budgetMs: 300,
    });

    expect(barcodes).toEqual([]);
  });
});

describe('assembleSequences', () => {
  it('joins every symbol of a Macro PDF417 message in index order', () => {
    const part = (index: number, text: string): Barcode => ({
      format: 'PDF417',
      text,
      bytes: new TextEncoder().encode(text),
      sequence: { id: 'abc', index, size: 2 },
    });

    const [message] = assembleSequences([part(1, 'world'), part(0, 'hello ')]);

    expect(message).toMatchObject({ text: 'hello world', isAssembled: true });
  });
});

describe('findBarcodes (green ID book)', () => {
  it('reads a Code 128 ID number', async () => {
    const bwipjs = (await import('bwip-js/node')).default;
    const png = await bwipjs.toBuffer({
      bcid: 'code128',
      text: '8001015009087',
      scale: 3,
      height: 12,
    });

    const barcodes = await findBarcodes(await decodeImage(png), {
      formats: ['Code39', 'Code128', 'ITF'],
    });

    expect(barcodes[0]).toMatchObject({ format: 'Code128', text: '8001015009087' });
  });
});
