import { describe, expect, it } from 'vitest';

import type { OcrLine } from '../ocr/ocr-line';

import { fragmentRegions, joinNeighbours } from './plate-groups';

const line = (text: string, x: number, y: number, width: number, height: number): OcrLine => ({
  text,
  confidence: 0.95,
  box: { x, y, width, height },
});

const texts = (lines: OcrLine[]) => lines.map((l) => l.text);

describe('joinNeighbours', () => {
  // Boxes as PaddleOCR gives them for a 600 px wide plate that fills the frame (measured on the
  // rendered `KP 35 XK GP`): one box per character group, neighbouring boxes overlapping.
  const tightGp = [
    line('KP', 60, 30, 130, 70),
    line('35', 170, 31, 110, 68),
    line('XK', 300, 30, 120, 70),
    line('GP', 430, 30, 110, 70),
    line('GAUTENG', 250, 108, 100, 18),
  ];

  it('joins every run of boxes on one baseline, the whole plate included', () => {
    const joined = texts(joinNeighbours(tightGp));

    expect(joined).toContain('KP 35 XK GP');
    expect(joined).toContain('KP 35');
    expect(joined).toContain('35 XK GP');
  });

  it('keeps the small province strip out of the plate', () => {
    expect(texts(joinNeighbours(tightGp)).some((t) => t.includes('GAUTENG'))).toBe(false);
  });

  it('joins the two rows of a square plate, top row first', () => {
    const joined = texts(
      joinNeighbours([line('XK GP', 40, 120, 280, 80), line('KP 35', 45, 20, 270, 80)]),
    );

    expect(joined).toEqual(['KP 35 XK GP']);
  });

  it('does not join text far apart on a row or of a very different size', () => {
    const joined = joinNeighbours([
      line('CA 123-456', 100, 300, 300, 60),
      line('TOYOTA', 700, 300, 200, 60),
      line('SINCE', 410, 320, 60, 20),
    ]);

    expect(joined).toEqual([]);
  });

  it('stays bounded on a frame full of text boxes', () => {
    const many = Array.from({ length: 40 }, (_, i) => line(`W${i}`, i * 50, 10, 45, 40));

    expect(joinNeighbours(many).length).toBeLessThanOrEqual(400);
  });
});

describe('fragmentRegions', () => {
  const image = { width: 1280, height: 720 };

  it('widens short confident fragments to a plate region, largest text first', () => {
    const regions = fragmentRegions(
      [
        line('ATG', 200, 230, 44, 30),
        line('104', 250, 233, 37, 20),
        line('2014-05-18', 1200, 690, 70, 25),
        line('X', 600, 300, 12, 8),
      ],
      image,
      2,
    );
    expect(regions.map((r) => r.fragment.text)).toEqual(['ATG', '104']);
    // 3 text heights left and right, 2.5 above and below.
    expect(regions[0]!.rect).toEqual({ left: 110, top: 155, width: 224, height: 180 });
  });

  it('keeps regions inside the image and skips unsure fragments', () => {
    const unsure = { ...line('AB', 500, 500, 40, 20), confidence: 0.3 };
    const [edge, ...rest] = fragmentRegions([line('AB', 5, 700, 40, 20), unsure], image, 2);
    expect(rest).toEqual([]);
    expect(edge!.rect).toEqual({ left: 0, top: 650, width: 105, height: 70 });
  });
});
