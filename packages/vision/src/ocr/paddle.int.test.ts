import sharp from 'sharp';
import { describe, expect, it } from 'vitest';

import { toRaw } from '../image/decode-image';

import { recognizeBoxes } from './paddle';

/** One printed MRZ-like line on white, 1400x90. */
async function aTextLine() {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1400" height="90">
  <rect width="100%" height="100%" fill="#fff"/>
  <text x="20" y="62" font-family="DejaVu Sans Mono" font-size="44" textLength="1360" lengthAdjust="spacingAndGlyphs" fill="#111">L898902C36UTO7408122F1204159ZE184226B</text>
</svg>`;
  return toRaw(sharp(Buffer.from(svg)).removeAlpha());
}

describe('recognizeBoxes', () => {
  const box = { x: 0, y: 0, width: 1400, height: 90 };

  it('keeps each character’s scores by default, and the same text without them', async () => {
    const image = await aTextLine();

    const [withScores] = await recognizeBoxes(image, [box], { intraOpThreads: 1 });
    const [textOnly] = await recognizeBoxes(image, [box], {
      intraOpThreads: 1,
      characterScores: false,
    });

    expect(withScores!.text).toContain('L898902C36');
    expect(withScores!.chars?.map((c) => c.char).join('')).toBe(withScores!.text);
    expect(textOnly).toEqual({ ...withScores, chars: undefined });
    expect(textOnly).not.toHaveProperty('chars');
  });
});
