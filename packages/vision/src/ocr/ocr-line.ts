import type { Quad } from './text-quad';

/** One recognised character with its probability and the best other character at that step. */
export type OcrChar = { char: string; p: number; alt: string; altP: number };

/** One recognised line of text, in the pixel coordinates of the image given to the engine. */
export type OcrLine = {
  text: string;
  /** 0..1 */
  confidence: number;
  /** Per character (PaddleOCR recognition only). */
  chars?: OcrChar[];
  /**
   * `points`, when present: the line's corners (top-left, top-right, bottom-right, bottom-left) of a
   * tilted line that recognition levelled (text-quad.ts); the box is their axis-aligned bounds.
   */
  box: {
    x: number;
    y: number;
    width: number;
    height: number;
    points?: Quad;
  };
};

/** Joins lines top to bottom (a small vertical overlap counts as the same line, left to right). */
export function linesToText(lines: OcrLine[]): string {
  const sorted = [...lines].sort((a, b) => a.box.y - b.box.y || a.box.x - b.box.x);
  const rows: OcrLine[][] = [];
  for (const line of sorted) {
    const row = rows[rows.length - 1];
    const centre = line.box.y + line.box.height / 2;
    const ref = row?.[0];
    if (
      ref &&
      Math.abs(centre - (ref.box.y + ref.box.height / 2)) <
        Math.min(line.box.height, ref.box.height) * 0.5
    ) {
      row.push(line);
    } else {
      rows.push([line]);
    }
  }
  return rows
    .map((row) =>
      row
        .sort((a, b) => a.box.x - b.box.x)
        .map((l) => l.text)
        .join(' '),
    )
    .join('\n');
}
