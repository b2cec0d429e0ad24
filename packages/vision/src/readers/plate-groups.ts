/**
 * Plate text split by the detector: pure geometry on recognised boxes (no OCR here), so the
 * grouping rules are unit-tested without models.
 */
import { normalisePlate } from '@boomgate/contracts/plates';

import type { OcrLine } from '../ocr/ocr-line';
import { textHeight } from '../ocr/text-quad';

type Box = OcrLine['box'];

/** `b` continues `a`'s row to the right: same baseline, similar height, a word gap at most. */
function followsOnRow(a: Box, b: Box): boolean {
  if (b.x <= a.x) return false;
  const h = Math.max(a.height, b.height);
  const gap = b.x - (a.x + a.width);
  const sameRow = Math.abs(a.y + a.height / 2 - (b.y + b.height / 2)) < h * 0.35;
  const similar = Math.min(a.height, b.height) / h > 0.7;
  // Unclipped detector boxes of large characters overlap by up to ~0.4 of a height.
  const reachesFurther = b.x + b.width > a.x + a.width;
  return sameRow && similar && reachesFurther && gap >= -h * 0.45 && gap < h * 1.2;
}

/** `b` is the second line of a two-line plate under `a`: stacked, overlapping, similar height. */
function stacksUnder(a: Box, b: Box): boolean {
  const h = Math.max(a.height, b.height);
  if (Math.min(a.height, b.height) / h < 0.6) return false;
  const gap = b.y - (a.y + a.height);
  const overlap = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  return gap >= -h * 0.15 && gap < h * 0.8 && overlap > 0.5 * Math.min(a.width, b.width);
}

function union(parts: OcrLine[]): OcrLine {
  const x0 = Math.min(...parts.map((p) => p.box.x));
  const y0 = Math.min(...parts.map((p) => p.box.y));
  const x1 = Math.max(...parts.map((p) => p.box.x + p.box.width));
  const chars = parts.every((p) => p.chars) ? parts.flatMap((p) => p.chars!) : undefined;
  return {
    text: parts.map((p) => p.text).join(' '),
    confidence: Math.min(...parts.map((p) => p.confidence)),
    ...(chars ? { chars } : {}),
    // A plate's character height, not the height of the stacked block.
    box: { x: x0, y: y0, width: x1 - x0, height: Math.max(...parts.map((p) => p.box.height)) },
  };
}

const MAX_PARTS = 5;
const MAX_JOINED = 200;

/**
 * Groups the detector may have split one plate into: runs of boxes on one baseline (`KP` `35` `XK`
 * `GP` when the characters are large, `CA 123` + `456`), and two stacked rows (square and
 * motorcycle plates). Every run of 2-5 consecutive boxes is a candidate; the pattern ranking picks.
 */
export function joinNeighbours(lines: OcrLine[]): OcrLine[] {
  const sorted = [...lines].sort((a, b) => a.box.x - b.box.x);
  const next = sorted.map((a) => sorted.filter((b) => b !== a && followsOnRow(a.box, b.box)));
  const runs: OcrLine[][] = [];
  const extend = (run: OcrLine[]) => {
    if (runs.length >= MAX_JOINED) return;
    if (run.length > 1) runs.push(run);
    if (run.length >= MAX_PARTS) return;
    for (const b of next[sorted.indexOf(run[run.length - 1]!)]!) extend([...run, b]);
  };
  for (const a of sorted) extend([a]);
  const rows = [...sorted.map((l) => [l]), ...runs];
  const rowBoxes = rows.map((r) => union(r).box);
  const stacked: OcrLine[][] = [];
  for (const [i, top] of rows.entries()) {
    for (const [j, bottom] of rows.entries()) {
      if (stacked.length >= MAX_JOINED) break;
      if (!stacksUnder(rowBoxes[i]!, rowBoxes[j]!) || top.some((l) => bottom.includes(l))) continue;
      stacked.push([...top, ...bottom]);
    }
  }
  return [...runs, ...stacked].map(union);
}

type Rect = { left: number; top: number; width: number; height: number };

/**
 * Where to look again for a plate read in pieces (`ATG` read, `L04` beside it lost): short
 * fragments (1-4 letters or digits) of confident text, largest text first, each with a region
 * widened to a plate's proportions on either side (3 text heights left and right, 2.5 above and
 * below, inside the image). The detector needs that context: it found no text in a crop the plate
 * filled.
 */
export function fragmentRegions(
  lines: OcrLine[],
  image: { width: number; height: number },
  max: number,
): Array<{ fragment: OcrLine; rect: Rect }> {
  return lines
    .filter((l) => {
      const n = normalisePlate(l.text).length;
      return n >= 1 && n <= 4 && l.confidence >= 0.5 && textHeight(l.box) >= 10;
    })
    .sort((a, b) => textHeight(b.box) - textHeight(a.box))
    .slice(0, max)
    .map((fragment) => {
      const h = textHeight(fragment.box);
      const left = Math.max(0, Math.floor(fragment.box.x - 3 * h));
      const top = Math.max(0, Math.floor(fragment.box.y - 2.5 * h));
      const right = Math.min(image.width, Math.ceil(fragment.box.x + fragment.box.width + 3 * h));
      const bottom = Math.min(
        image.height,
        Math.ceil(fragment.box.y + fragment.box.height + 2.5 * h),
      );
      return { fragment, rect: { left, top, width: right - left, height: bottom - top } };
    })
    .filter(({ rect }) => rect.width > 0 && rect.height > 0);
}
