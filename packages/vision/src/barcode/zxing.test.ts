import { describe, expect, it } from 'vitest';

import { decodeImage, toGrey, toRgba } from '../image/decode-image';
import { makePhotoLike, renderPdf417 } from '../testing/barcode-fixture';

import { zxingRead, zxingReadGrey } from './zxing';

const DISC =
  '%MVL1CC16%0137%4025C016%1%40250134XHVC%JP33WFGP%CCK307X%Pick-up / Bakkie%ISUZU%D-MAX%White / Wit%ACVMRRAR6K4055410%4JA14H8257%2021-07-31%';
const options = { formats: ['PDF417' as const], tryHarder: true, maxNumberOfSymbols: 4 };

describe('zxingReadGrey', () => {
  it('reads the same symbol, bytes and position as the RGBA entry point', async () => {
    const grey = toGrey(
      await decodeImage(
        await makePhotoLike(await renderPdf417(DISC), {
          width: 900,
          height: 500,
          rotateDegrees: 1,
        }),
      ),
    );

    const fromGrey = await zxingReadGrey(grey, options);
    const fromRgba = await zxingRead(
      { data: toRgba(grey), width: grey.width, height: grey.height },
      options,
    );

    expect(fromGrey).toHaveLength(1);
    expect(fromGrey[0]!.text).toBe(DISC);
    expect(fromGrey[0]!.format).toBe('PDF417');
    expect(Buffer.from(fromGrey[0]!.bytes).equals(Buffer.from(fromRgba[0]!.bytes))).toBe(true);
    expect(fromGrey[0]!.position).toEqual(fromRgba[0]!.position);
  });

  it('honours the format filter (a PDF417 is not reported when only QR codes are asked for)', async () => {
    const grey = toGrey(await decodeImage(await renderPdf417(DISC)));

    expect(await zxingReadGrey(grey, { formats: ['QRCode'] })).toEqual([]);
    expect((await zxingReadGrey(grey, { formats: [] }))[0]?.text).toBe(DISC);
  });

  it('rejects an image that is not one byte per pixel', async () => {
    await expect(
      zxingReadGrey({ data: new Uint8Array(10), width: 10, height: 10 }, options),
    ).rejects.toThrow(/one byte per pixel/);
  });
});
