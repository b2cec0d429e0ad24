/**
 * Emblems and stickers between a plate's characters (a state emblem, a round inspection sticker):
 * a blob of ink in a gap of the character row that the recogniser reads as one more character
 * (`2DA•044` read `2DA0044`). Found on the binarised crop of the plate's line by connected
 * components: the characters are the components as tall as the row's tallest ones and standing on
 * one baseline; an emblem is a component between two of them that is clearly shorter than a
 * character and lies in a gap (it overlaps no character's columns). Pure functions on a grey image.
 */

export type GreyImage = { data: Uint8Array; width: number; height: number };
export type Blob = { x: number; y: number; width: number; height: number; pixels: number };

/** Otsu's threshold of a grey image (the value that best splits it into two classes). */
export function otsuThreshold(image: GreyImage): number {
  const hist = new Array<number>(256).fill(0);
  for (const v of image.data) hist[v]!++;
  const total = image.data.length;
  let sum = 0;
  for (let i = 0; i < 256; i++) sum += i * hist[i]!;
  let sumB = 0;
  let weightB = 0;
  let best = 0;
  let threshold = 127;
  for (let t = 0; t < 256; t++) {
    weightB += hist[t]!;
    if (!weightB) continue;
    const weightF = total - weightB;
    if (!weightF) break;
    sumB += t * hist[t]!;
    const between = weightB * weightF * (sumB / weightB - (sum - sumB) / weightF) ** 2;
    if (between > best) {
      best = between;
      threshold = t;
    }
  }
  return threshold;
}

/**
 * Connected components (8-connected) of the ink: the class below Otsu's threshold, or above it
 * when that class is the smaller one (light characters on a dark plate).
 */
export function inkComponents(image: GreyImage): { blobs: Blob[]; ink: Uint8Array } {
  const { width, height, data } = image;
  const t = otsuThreshold(image);
  let dark = 0;
  for (const v of data) if (v <= t) dark++;
  const darkInk = dark <= data.length / 2;
  const ink = new Uint8Array(data.length);
  for (let i = 0; i < data.length; i++) ink[i] = (darkInk ? data[i]! <= t : data[i]! > t) ? 1 : 0;
  const label = new Int32Array(data.length).fill(-1);
  const blobs: Blob[] = [];
  const stack: number[] = [];
  for (let start = 0; start < data.length; start++) {
    if (!ink[start] || label[start]! >= 0) continue;
    const id = blobs.length;
    let x0 = width;
    let y0 = height;
    let x1 = 0;
    let y1 = 0;
    let pixels = 0;
    label[start] = id;
    stack.push(start);
    while (stack.length) {
      const p = stack.pop()!;
      const x = p % width;
      const y = (p - x) / width;
      pixels++;
      x0 = Math.min(x0, x);
      x1 = Math.max(x1, x);
      y0 = Math.min(y0, y);
      y1 = Math.max(y1, y);
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          const ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
          const q = ny * width + nx;
          if (ink[q] && label[q]! < 0) {
            label[q] = id;
            stack.push(q);
          }
        }
      }
    }
    blobs.push({ x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1, pixels });
  }
  return { blobs, ink };
}

export type RowAnalysis = {
  /** The character components, left to right. */
  characters: Blob[];
  /** Emblems between characters, left to right, each with how many characters stand left of it. */
  emblems: Array<Blob & { charactersBefore: number }>;
};

/** A character is at least this share of the row's character height (the median of the tall ones). */
const CHARACTER_HEIGHT = 0.75;
/** An emblem is at most this share of the character height, and at least this share. */
const EMBLEM_MAX_HEIGHT = 0.7;
const EMBLEM_MIN_HEIGHT = 0.2;

/**
 * The character row of a plate's line crop and the emblems in its gaps. Characters: components at
 * least 3/4 as tall as the row's character height (the median height of the components taller than
 * a third of the crop), whose bottoms lie within a quarter of that height of the row's baseline.
 * Emblems: components 0.2-0.7 of the character height, at least 0.2 of it wide (not a dot or a
 * hyphen), vertically inside the row, between the first and the last character, overlapping no
 * character's columns. Nothing is returned for a row of fewer than 4 characters.
 */
export function analyseRow(image: GreyImage): RowAnalysis {
  const { blobs } = inkComponents(image);
  const tall = blobs.filter((b) => b.height >= image.height / 3 && b.height < image.height * 0.95);
  if (tall.length < 4) return { characters: [], emblems: [] };
  const heights = tall.map((b) => b.height).sort((a, b) => a - b);
  const h = heights[Math.floor(heights.length / 2)]!;
  const bottoms = tall
    .filter((b) => b.height >= h * CHARACTER_HEIGHT)
    .map((b) => b.y + b.height)
    .sort((a, b) => a - b);
  const baseline = bottoms[Math.floor(bottoms.length / 2)]!;
  const characters = tall
    .filter(
      (b) =>
        b.height >= h * CHARACTER_HEIGHT &&
        b.height <= h * 1.3 &&
        b.width <= h * 1.2 &&
        Math.abs(b.y + b.height - baseline) <= h * 0.25,
    )
    .sort((a, b) => a.x - b.x);
  if (characters.length < 4) return { characters: [], emblems: [] };
  const first = characters[0]!;
  const last = characters[characters.length - 1]!;
  const top = baseline - h;
  const overlapsCharacter = (b: Blob) =>
    characters.some((c) => b.x < c.x + c.width && c.x < b.x + b.width);
  const emblems = blobs
    .filter(
      (b) =>
        b.height >= h * EMBLEM_MIN_HEIGHT &&
        b.height <= h * EMBLEM_MAX_HEIGHT &&
        b.width >= h * EMBLEM_MIN_HEIGHT &&
        b.y >= top - h * 0.1 &&
        b.y + b.height <= baseline + h * 0.1 &&
        b.x > first.x + first.width &&
        b.x + b.width < last.x &&
        !overlapsCharacter(b),
    )
    .sort((a, b) => a.x - b.x)
    .map((b) => ({ ...b, charactersBefore: characters.filter((c) => c.x < b.x).length }));
  return { characters, emblems };
}

/**
 * The places (indices into a reading of the row) where an emblem stands, when a reading has exactly
 * one character more per emblem gap than the row has characters: that reading took each emblem for
 * a character. Emblems in one gap (two stacked stickers) are one place. Null otherwise: a reading as
 * long as the row read the characters and ignored the emblems (most plates with one).
 */
export function emblemPlaces(row: RowAnalysis, reading: string): number[] | null {
  if (!row.emblems.length) return null;
  const gaps = [...new Set(row.emblems.map((e) => e.charactersBefore))].sort((a, b) => a - b);
  if (reading.length !== row.characters.length + gaps.length) return null;
  // Each earlier emblem place shifts the next one by the character it was read as.
  return gaps.map((g, i) => g + i);
}

/** The reading without the characters at the emblem places. */
export function withoutPlaces(reading: string, places: number[]): string {
  return [...reading].filter((_, i) => !places.includes(i)).join('');
}

/** A copy of the image with the emblems painted over in the row's background (the brightest common grey or darkest, by ink polarity). */
export function paintOver(image: GreyImage, blobs: Blob[]): GreyImage {
  const data = Uint8Array.from(image.data);
  const t = otsuThreshold(image);
  let dark = 0;
  for (const v of image.data) if (v <= t) dark++;
  const darkInk = dark <= image.data.length / 2;
  // The background's median grey.
  const background = [...image.data]
    .filter((v) => (darkInk ? v > t : v <= t))
    .sort((a, b) => a - b);
  const fill = background[Math.floor(background.length / 2)] ?? (darkInk ? 255 : 0);
  for (const b of blobs) {
    for (let y = Math.max(0, b.y - 2); y < Math.min(image.height, b.y + b.height + 2); y++)
      for (let x = Math.max(0, b.x - 2); x < Math.min(image.width, b.x + b.width + 2); x++)
        data[y * image.width + x] = fill;
  }
  return { data, width: image.width, height: image.height };
}
