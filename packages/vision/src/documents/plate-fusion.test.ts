import { describe, expect, it } from 'vitest';

import { isPlateConfirmed, rankPlateCandidates, type PlateCandidateInput } from './plate';
import { alignedChars, applyFusion, fuseReadings } from './plate-fusion';

/** A reading whose characters all have probability `p`, except the given [index, p, alt, altP] ones. */
function reading(
  text: string,
  source: string,
  doubts: Array<[index: number, p: number, alt: string, altP: number]> = [],
): PlateCandidateInput {
  const chars = [...text].map((char) => ({ char, p: 0.98, alt: '', altP: 0 }));
  for (const [i, p, alt, altP] of doubts) chars[i] = { char: text[i]!, p, alt, altP };
  return {
    text,
    confidence: chars.reduce((s, c) => s + c.p, 0) / chars.length,
    chars,
    source,
    relativeHeight: 0.05,
  };
}

describe('alignedChars', () => {
  it('keeps the letters and digits of a reading that spell its text', () => {
    const chars = alignedChars({
      text: 'AB-12',
      chars: [
        { char: 'A', p: 0.9, alt: '4', altP: 0.1 },
        { char: 'b', p: 0.9, alt: '8', altP: 0.05 },
        { char: '-', p: 0.9, alt: '.', altP: 0.05 },
        { char: '1', p: 0.9, alt: 'i', altP: 0.05 },
        { char: '2', p: 0.9, alt: 'Z', altP: 0.05 },
      ],
    });
    expect(chars?.map((c) => c.char).join('')).toBe('AB12');
    expect(chars?.[2]?.alt).toBe('I');
  });

  it('gives up when the characters do not spell the text', () => {
    expect(alignedChars({ text: 'AB12', chars: [{ char: 'A', p: 1, alt: '', altP: 0 }] })).toBe(
      null,
    );
    expect(alignedChars({ text: 'AB12' })).toBe(null);
  });
});

describe('fuseReadings', () => {
  // Three recognitions of `J868321`, each wrong at one place, each unsure there.
  const readings = [
    reading('1868321', 'detect', [[0, 0.5, 'J', 0.42]]),
    reading('1868371', 'reread', [
      [0, 0.61, '4', 0.01],
      [5, 0.87, '2', 0.07],
    ]),
    reading('J8683Z1', 'confirm', [[5, 0.59, '2', 0.3]]),
  ];

  it('takes at each place the character with the most probability over the readings', () => {
    const fused = fuseReadings('1868321', readings);
    expect(fused?.text).toBe('J868321');
    expect(fused?.source).toBeUndefined();
    expect(fused?.chars?.[0]).toMatchObject({ char: 'J', alt: '1' });
  });

  it('needs two readings of the same length within two differences', () => {
    expect(fuseReadings('1868321', readings.slice(0, 1))).toBe(null);
    expect(fuseReadings('1868321', [readings[0]!, reading('ABCDEFG', 'x')])).toBe(null);
    expect(fuseReadings('1868321', [readings[0]!, reading('18683210', 'x')])).toBe(null);
  });

  it('leaves O/0 and I/1 to the plate (one glyph in many fonts)', () => {
    const fused = fuseReadings('NZO6276', [
      reading('NZ06276', 'detect', [[2, 0.6, 'O', 0.4]]),
      reading('NZ06276', 'reread', [[2, 0.7, 'O', 0.3]]),
    ]);
    expect(fused?.text).toBe('NZO6276');
  });

  it('weighs each reading by its line confidence', () => {
    // Two unsure readings say G, one sure reading says 6: by raw probability G wins (1.2 vs 1.1),
    // weighted by how sure each recognition was of the whole line, 6 does.
    const unsure = (source: string) => ({
      ...reading('SK2WGK', source, [[4, 0.6, '6', 0.1]]),
      confidence: 0.6,
    });
    const sure = { ...reading('SK2W6K', 'reread', [[4, 0.9, 'G', 0]]), confidence: 0.99 };
    expect(fuseReadings('SK2WGK', [unsure('detect'), unsure('confirm'), sure])?.text).toBe(
      'SK2W6K',
    );
  });
});

describe('applyFusion', () => {
  it('puts the fused plate first, unconfirmed when no recognition read it exactly', () => {
    const inputs = [
      reading('1868321', 'detect', [[0, 0.5, 'J', 0.42]]),
      reading('1868371', 'reread', [
        [0, 0.61, '4', 0.01],
        [5, 0.87, '2', 0.07],
      ]),
      reading('J8683Z1', 'confirm', [[5, 0.59, '2', 0.3]]),
    ];
    const ranked = applyFusion(rankPlateCandidates(inputs), inputs);
    expect(ranked[0]?.plateNumber).toBe('J868321');
    expect(ranked[0]?.sources.size).toBe(0);
    expect(isPlateConfirmed(ranked)).toBe(false);
  });

  it('changes nothing when the readings agree', () => {
    const inputs = [reading('CA123456', 'detect'), reading('CA123456', 'reread')];
    const ranked = rankPlateCandidates(inputs);
    expect(applyFusion(ranked, inputs)).toEqual(ranked);
    expect(isPlateConfirmed(applyFusion(ranked, inputs))).toBe(true);
  });

  it('moves up a plate one recognition read when the votes favour it', () => {
    const inputs = [
      reading('SK2WGK', 'detect', [[4, 0.5, '6', 0.45]]),
      reading('SK2W6K', 'reread', [[4, 0.9, 'G', 0.05]]),
      reading('SK2WGK', 'confirm', [[4, 0.4, '6', 0.35]]),
    ];
    const ranked = applyFusion(rankPlateCandidates(inputs), inputs);
    expect(ranked[0]?.plateNumber).toBe('SK2W6K');
    expect(ranked[0]?.sources).toEqual(new Set(['reread']));
    expect(isPlateConfirmed(ranked)).toBe(false);
  });
});
