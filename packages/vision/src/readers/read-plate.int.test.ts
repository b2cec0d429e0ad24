import { afterAll, describe, expect, it } from 'vitest';

import { decodeImage } from '../image/decode-image';
import { closeTesseract } from '../ocr/tesseract';
import { SADC_PLATES, SA_PLATES, renderPlatePhoto } from '../testing/plate-fixture';

import { readPlate } from './read-plate';

const ctx = { intraOpThreads: 2 };

afterAll(() => closeTesseract());

describe('readPlate (PaddleOCR, rendered plates)', () => {
  it.each(SA_PLATES.map((p, i) => [p.display, p, i] as const))(
    'reads the SA plate %s from a blurred, rotated, noisy photo',
    async (_display, { display, plate, style }, i) => {
      const photo = await renderPlatePhoto(display, style, {
        rotateDegrees: i % 2 ? -3 : 3,
        seed: i + 1,
      });

      const result = await readPlate(await decodeImage(photo), ctx);

      expect(result.ok && result.fields.plateNumber).toBe(plate);
    },
  );

  it.each(SADC_PLATES.map((p) => [p.display, p] as const))(
    'reads the cross-border plate %s',
    async (_d, { display, plate, style }) => {
      const result = await readPlate(
        await decodeImage(await renderPlatePhoto(display, style)),
        ctx,
      );

      expect(result.ok && result.fields.plateNumber).toBe(plate);
    },
  );

  it('gives the display form and ranked alternatives', async () => {
    const { display, style } = SA_PLATES[0]!;

    const result = await readPlate(await decodeImage(await renderPlatePhoto(display, style)), ctx);

    expect(result.ok && result.fields.displayPlate).toBe('KP 35 XK GP');
    expect(result.ok && result.source).toBe('ocr');
    expect(result.confidence).toBeGreaterThan(0.5);
  });

  it('answers ok: false when there is no plate', async () => {
    const photo = await renderPlatePhoto('', { background: '#3b4a5a', text: '#3b4a5a' });

    const result = await readPlate(await decodeImage(photo), ctx);

    expect(result.ok).toBe(false);
  });
});
