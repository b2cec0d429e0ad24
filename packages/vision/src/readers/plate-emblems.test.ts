import { describe, expect, it } from 'vitest';

import {
  type GreyImage,
  analyseRow,
  emblemPlaces,
  otsuThreshold,
  paintOver,
  withoutPlaces,
} from './plate-emblems';

/** A light plate row with dark bars for characters (x, width) and dark squares for marks. */
function row(
  characters: Array<[x: number, width: number]>,
  marks: Array<[x: number, y: number, size: number]> = [],
  { width = 240, height = 60, top = 10, charHeight = 40 } = {},
): GreyImage {
  const data = new Uint8Array(width * height).fill(220);
  const fill = (x0: number, y0: number, w: number, h: number) => {
    for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) data[y * width + x] = 30;
  };
  for (const [x, w] of characters) fill(x, top, w, charHeight);
  for (const [x, y, size] of marks) fill(x, y, size, size);
  return { data, width, height };
}

const sixCharacters: Array<[number, number]> = [
  [10, 18],
  [36, 18],
  [62, 18],
  [120, 18],
  [146, 18],
  [172, 18],
];

describe('otsuThreshold', () => {
  it('splits a two-level image between its levels', () => {
    const t = otsuThreshold(row(sixCharacters));
    expect(t).toBeGreaterThanOrEqual(30);
    expect(t).toBeLessThan(220);
  });
});

describe('analyseRow', () => {
  it('finds the characters and a short blob in a gap between them', () => {
    const analysis = analyseRow(row(sixCharacters, [[92, 22, 16]]));

    expect(analysis.characters).toHaveLength(6);
    expect(analysis.emblems).toHaveLength(1);
    expect(analysis.emblems[0]).toMatchObject({ charactersBefore: 3, width: 16, height: 16 });
  });

  it('takes no character-tall blob, no speck and nothing outside the row for an emblem', () => {
    const analysis = analyseRow(
      row(
        [...sixCharacters, [92, 18]],
        [
          [200, 22, 16], // right of the last character
          [108, 30, 3], // a speck
        ],
      ),
    );

    expect(analysis.characters).toHaveLength(7);
    expect(analysis.emblems).toHaveLength(0);
  });

  it('reads nothing into a row of fewer than four characters', () => {
    expect(analyseRow(row(sixCharacters.slice(0, 3), [[92, 22, 16]]))).toEqual({
      characters: [],
      emblems: [],
    });
  });
});

describe('emblemPlaces', () => {
  const analysis = analyseRow(row(sixCharacters, [[92, 22, 16]]));

  it('places the emblem in a reading one character longer than the row', () => {
    expect(emblemPlaces(analysis, 'KDA0744')).toEqual([3]);
    expect(withoutPlaces('KDA0744', [3])).toBe('KDA744');
  });

  it('leaves a reading as long as the row alone: it ignored the emblem', () => {
    expect(emblemPlaces(analysis, 'KDA744')).toBeNull();
    expect(emblemPlaces(analysis, 'KDA07440')).toBeNull();
  });

  it('counts stacked emblems in one gap as one place', () => {
    const stacked = analyseRow(
      row(sixCharacters, [
        [94, 12, 12],
        [94, 34, 12],
      ]),
    );
    expect(stacked.emblems).toHaveLength(2);
    expect(emblemPlaces(stacked, 'KDA8744')).toEqual([3]);
  });
});

describe('paintOver', () => {
  it('paints the emblem in the background grey and leaves the characters', () => {
    const image = row(sixCharacters, [[92, 22, 16]]);
    const analysis = analyseRow(image);
    const painted = paintOver(image, analysis.emblems);

    expect(painted.data[30 * image.width + 100]).toBe(220);
    expect(painted.data[30 * image.width + 15]).toBe(30);
    expect(analyseRow(painted).emblems).toHaveLength(0);
    expect(analyseRow(painted).characters).toHaveLength(6);
  });
});
