import {
  type MrzReading,
  confirmsByCheckDigits,
  extractMrzLines,
  type MrzFormat,
  formatOfFirstLine,
  mrzLineCount,
  parseMrz,
  voteMrzLines,
} from '../documents/mrz';
import { type MrzEvidence, confirmMrzFields, namesAnchored } from '../documents/mrz-confirm';
import sharp from 'sharp';

import { type RawImage, type Rect, clampRect, fromRaw, toRaw } from '../image/decode-image';
import type { OcrLine } from '../ocr/ocr-line';
import { type TextBox, detectTextBoxes, ocrSelectedLines, recognizeBoxes } from '../ocr/paddle';
import { PSM, type TesseractMode, ocrWithTesseract } from '../ocr/tesseract';
import { MAX_RECTIFY_DEGREES, MIN_RECTIFY_DEGREES } from '../ocr/text-quad';
import type { ReadResult } from '../types';

import type { ReaderContext } from './reader-context';

const MRZ_WHITELIST = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<';

function looksLikeMrzLine(text: string): boolean {
  const t = text.toUpperCase().replace(/\s+/g, '');
  const fillers = (t.match(/[<«‹]/g) ?? []).length;
  return t.length >= 20 && (fillers >= 2 || /^[A-Z0-9<]{28,}$/.test(t));
}

/**
 * True when a lone MRZ line may be one of a TD1 card's three: 30 characters with two of slack, or a
 * card's first line however many fillers were over-read (formatOfFirstLine).
 */
const mayBeTd1Line = (text: string) =>
  text.replace(/\s+/g, '').length <= 32 || formatOfFirstLine(text) === 'TD1';

/** The band of the image holding the MRZ, from PaddleOCR's text boxes. */
export function mrzBand(lines: OcrLine[], image: RawImage): Rect | null {
  const mrz = lines.filter((l) => looksLikeMrzLine(l.text));
  if (!mrz.length) return null;
  const x0 = Math.min(...mrz.map((l) => l.box.x));
  const y0 = Math.min(...mrz.map((l) => l.box.y));
  const x1 = Math.max(...mrz.map((l) => l.box.x + l.box.width));
  const y1 = Math.max(...mrz.map((l) => l.box.y + l.box.height));
  const lineHeight = Math.max(...mrz.map((l) => l.box.height));
  // With a single line found, the zone may have another line above it that the detector missed;
  // a single line of ID-card length (TD1, 30 characters) may be the first of three, the other two
  // below it (id-usa: its lower half was read by three tesseract passes, ~700 ms, for want of them).
  const above = mrz.length < 2 ? lineHeight * 2.2 : lineHeight * 0.8;
  const below = mrz.length < 2 && mayBeTd1Line(mrz[0]!.text) ? lineHeight * 4 : lineHeight * 0.8;
  return clampRect(
    {
      left: x0 - lineHeight,
      top: y0 - above,
      width: x1 - x0 + 2 * lineHeight,
      height: y1 - y0 + above + below,
    },
    image,
  );
}

/**
 * The format of a zone whose every line is among `lines` (top first): the first line's document code
 * and length name the format (formatOfFirstLine), and the lines number that format's count. Null
 * when the top line opens no zone or lines are missing (a TD1 located by two of its three lines).
 */
export function wholeZoneFormat(lines: Array<{ text: string }>): MrzFormat | null {
  const format = lines[0] ? formatOfFirstLine(lines[0].text) : null;
  return format && lines.length === mrzLineCount(format) ? format : null;
}

/**
 * True when a wide box, met going up the page after the MRZ lines `mrz` (bottom first), is not part
 * of the zone and need not be recognised: the zone is whole once its first line (the top one read)
 * and the line count of the format it announces are read (visa-usa read a visual-zone line just
 * above its zone, ~190 ms), and a line farther above the zone than 1.5 times its line pitch is not
 * part of it. Decided by the format, not by line length alone: a TD1 line over-read by a few `<` is
 * as long as a TD2 line, and the card's first line is still to come.
 */
export function isPastZone(mrz: OcrLine[], box: { y: number; height: number }): boolean {
  if (mrz.length < 2) return false;
  if (wholeZoneFormat([...mrz].reverse())) return true;
  const centre = (b: { y: number; height: number }) => b.y + b.height / 2;
  const top = centre(mrz[mrz.length - 1]!.box);
  const pitch = (centre(mrz[0]!.box) - top) / (mrz.length - 1);
  return top - centre(box) > pitch * 1.5;
}

/**
 * Recognises the wide text lines from the bottom of the page up, where the MRZ is printed, until
 * isPastZone(). Other wide lines cost as much as an MRZ line to recognise.
 */
async function readZoneLines(
  image: RawImage,
  wide: TextBox[],
  ctx: ReaderContext,
): Promise<OcrLine[]> {
  const centre = (b: { y: number; height: number }) => b.y + b.height / 2;
  const lines: OcrLine[] = [];
  const mrz: OcrLine[] = [];
  for (const box of [...wide].sort((a, b) => centre(b) - centre(a))) {
    if (isPastZone(mrz, box)) break;
    const [line] = await recognizeBoxes(image, [box], {
      intraOpThreads: ctx.intraOpThreads,
      characterScores: false,
    });
    if (!line) continue;
    lines.push(line);
    if (looksLikeMrzLine(line.text)) mrz.push(line);
  }
  return lines;
}

/**
 * The detected lines of a zone crop worth recognising: an MRZ line holds 20+ characters at one pitch,
 * so a box under 40 % of the widest one (under 18 characters of a 44-character line) cannot be one
 * that looksLikeMrzLine() keeps. Narrower boxes are visual-zone text caught in the crop.
 */
export function zoneLineBoxes(boxes: Array<{ width: number }>): boolean[] {
  const widest = Math.max(0, ...boxes.map((b) => b.width));
  return boxes.map((b) => b.width >= widest * 0.4);
}

/**
 * The crops handed to tesseract (and decoded again for PaddleOCR) are stored, not deflated: the same
 * pixels, and the deflate at sharp's default level cost ~55 of ~185 ms CPU of an MRZ band crop.
 */
const UNCOMPRESSED_PNG = { compressionLevel: 0 } as const;

/** Crops and scales so MRZ characters are ~32 px tall (tesseract needs >= ~25 px). */
async function mrzCrop(
  image: RawImage,
  rect: Rect,
  lineCount: number,
  targetWidth?: number,
): Promise<Buffer> {
  const lineHeight = rect.height / (lineCount + 1);
  const factor = targetWidth
    ? targetWidth / rect.width
    : Math.min(4, Math.max(0.5, 32 / (lineHeight * 0.7)));
  return fromRaw(image)
    .extract(rect)
    .resize({ width: Math.round(rect.width * factor), kernel: 'cubic' })
    .greyscale()
    .normalise()
    .png(UNCOMPRESSED_PNG)
    .toBuffer();
}

/**
 * The MRZ lines a tesseract reading of a wide region found, as a band in image coordinates (the
 * region was scaled by `scale` before reading). Null unless 2-3 lines look like MRZ lines.
 */
function mrzLinesIn(lines: OcrLine[], region: Rect, scale: number, image: RawImage) {
  const mrz = lines.filter((l) => looksLikeMrzLine(l.text));
  if (mrz.length < 2 || mrz.length > 3) return null;
  const x0 = Math.min(...mrz.map((l) => l.box.x));
  const y0 = Math.min(...mrz.map((l) => l.box.y));
  const x1 = Math.max(...mrz.map((l) => l.box.x + l.box.width));
  const y1 = Math.max(...mrz.map((l) => l.box.y + l.box.height));
  const pad = (y1 - y0) / mrz.length / 2;
  return {
    rect: clampRect(
      {
        left: region.left + (x0 - 2 * pad) / scale,
        top: region.top + (y0 - pad) / scale,
        width: (x1 - x0 + 4 * pad) / scale,
        height: (y1 - y0 + 2 * pad) / scale,
      },
      image,
    ),
    lineCount: mrz.length,
  };
}

/** Boxes of `image` (pixels) in the coordinates of a crop of `rect` scaled to `crop`'s width. */
export function boxesInCrop(
  boxes: Array<{ x: number; y: number; width: number; height: number }>,
  rect: Rect,
  crop: { width: number; height: number },
): TextBox[] {
  const f = crop.width / rect.width;
  return boxes.map((b) => {
    const x = Math.min(crop.width - 1, Math.max(0, Math.floor((b.x - rect.left) * f)));
    const y = Math.min(crop.height - 1, Math.max(0, Math.floor((b.y - rect.top) * f)));
    return {
      x,
      y,
      width: Math.max(1, Math.min(crop.width - x, Math.round(b.width * f))),
      height: Math.max(1, Math.min(crop.height - y, Math.round(b.height * f))),
    };
  });
}

/**
 * Tesseract's line boxes (tight around the glyphs) grown to what PaddleOCR's recogniser expects of a
 * detected line: a margin of a quarter of the line height around it, within the image.
 */
export function padBoxes(
  boxes: Array<{ x: number; y: number; width: number; height: number }>,
  image: { width: number; height: number },
): TextBox[] {
  return boxes.map((b) => {
    const m = Math.round(b.height * 0.25);
    const x = Math.max(0, b.x - m);
    const y = Math.max(0, b.y - m);
    return {
      x,
      y,
      width: Math.max(1, Math.min(image.width, b.x + b.width + m) - x),
      height: Math.max(1, Math.min(image.height, b.y + b.height + m) - y),
    };
  });
}

/**
 * True when two readings from different groups (independent engines or preprocessings) have the same
 * format and the same characters on every line a check digit covers (TD1: the first two lines; the
 * others: the second line): the lines were located and read consistently.
 */
export function checkedLinesAgree(evidence: MrzEvidence[]): boolean {
  const checked = (r: MrzReading) =>
    (r.format === 'TD1' ? r.mrzLines.slice(0, 2) : r.mrzLines.slice(1, 2)).join('\n');
  return evidence.some((a, i) =>
    evidence
      .slice(i + 1)
      .some(
        (b) =>
          a.group !== b.group &&
          a.reading.format === b.reading.format &&
          checked(a.reading) === checked(b.reading),
      ),
  );
}

/**
 * The reading with each name (surname, given names) taken from the value that more engines read alike
 * (both PaddleOCR and tesseract, more than read the reading's own, no rival as many). No check digit
 * covers the names, so a reading that won on its check digits has no better claim to them than the
 * others: pass-fra's only check-valid reading at the first scale had `CHRISTOPHF`, which the page's
 * PaddleOCR reading and tesseract both read `CHRISTOPHE`. Counted per engine, not per preprocessing:
 * tesseract's readings of one crop and of its binarised copy make the same misreads (a worn `ER`
 * read `UJ` by both). Everything else (checks, corrections) stays as read.
 */
export function withAgreedNames(
  reading: MrzReading,
  evidence: MrzEvidence[],
  now?: Date,
): MrzReading {
  // A reading whose names may be shifted (namesAnchored) votes for none.
  const same = evidence.filter(
    (e) =>
      e.reading.format === reading.format &&
      e.reading.mrzLines.length === reading.mrzLines.length &&
      namesAnchored(e.reading),
  );
  const agreed = (valueOf: (r: MrzReading) => string) => {
    const engines = new Map<string, Set<string>>();
    for (const e of same) {
      const value = valueOf(e.reading);
      engines.set(value, (engines.get(value) ?? new Set()).add(e.group.split(':')[0]!));
    }
    const own = valueOf(reading);
    const ownSupport = engines.get(own)?.size ?? 0;
    const ranked = [...engines]
      .filter(([value]) => value !== own)
      .map(([value, by]) => ({ value, support: by.size }))
      .sort((x, y) => y.support - x.support);
    const best = ranked[0];
    if (!best || best.support < 2 || best.support <= ownSupport) return own;
    return ranked[1]?.support === best.support ? own : best.value;
  };
  const surname = agreed((r) => r.surname.trim());
  const givenNames = agreed((r) => r.givenNames.trim());
  if (surname === reading.surname.trim() && givenNames === reading.givenNames.trim())
    return reading;
  const line = reading.format === 'TD1' ? 2 : 0;
  const start = reading.format === 'TD1' ? 0 : 5;
  const width = reading.mrzLines[line]!.length - start;
  const words = (name: string) => name.split(/\s+/).filter(Boolean).join('<');
  const field = `${words(surname)}${givenNames ? `<<${words(givenNames)}` : ''}`;
  if (!surname || field.length > width) return reading;
  const mrzLines = reading.mrzLines.map((l, i) =>
    i === line ? l.slice(0, start) + field.padEnd(width, '<') : l,
  );
  const parsed = parseMrz(mrzLines, now);
  if (!parsed || parsed.surname !== surname || parsed.givenNames !== givenNames) return reading;
  return { ...reading, mrzLines, surname, givenNames, corrected: true };
}

function checkCount(reading: MrzReading | null): number {
  return reading ? Object.values(reading.checks).filter(Boolean).length : -1;
}

function agreement(a: MrzReading, others: MrzReading[]): number {
  let n = 0;
  for (const o of others) {
    if (o === a || o.format !== a.format) continue;
    for (let l = 0; l < a.mrzLines.length; l++) {
      for (let i = 0; i < a.mrzLines[l]!.length; i++)
        if (a.mrzLines[l]![i] === o.mrzLines[l]![i]) n++;
    }
  }
  return n;
}

/** What one pass over the image found: the chosen reading and every independent reading made. */
type MrzScan = {
  reading: MrzReading | null;
  text: string;
  /** Every engine reading of the zone (never a vote): the evidence that confirms uncovered fields. */
  readings: MrzEvidence[];
  /** Reads the rest of the page (the visual zone), for confirming names; cheap to skip. */
  readViz: (enough?: (text: string) => boolean, codesOnly?: boolean) => Promise<string>;
  /** The text boxes that located the whole zone at this scale, for a second scale to read again. */
  located?: Located;
};

/**
 * Finds and reads the MRZ. PaddleOCR locates the zone; the enlarged crop is then read by three
 * engines (PaddleOCR, tesseract legacy, which reads `<` reliably, and tesseract combined), which also
 * vote per character. Check digits are weak against look-alike swaps, so a reading must pass its
 * checks and agree best with the other readings to win. A zone whose checks fail is returned with
 * `checksValid: false`, never as valid. Fields no check digit covers (names, countries, sex) are
 * confirmed by a second reading or the visual zone, or listed as uncertain (`confirmMrzFields`).
 */
export async function readMrzFromImage(input: RawImage, ctx: ReaderContext): Promise<MrzScan> {
  // Small scans: MRZ characters of a few pixels are unreadable; enlarge before anything else.
  const longSide = Math.max(input.width, input.height);
  const factor = longSide < 1200 ? 1600 / longSide : 1;
  const first = await readMrzAtScale(input, factor, ctx);
  if (first.reading?.checksValid || factor <= MODERATE_UPSCALE * 1.1) return first;
  // A large enlargement (lanczos ringing) can turn a narrow OCR-B 0 into a D that no check digit
  // catches inside the document number: a second reading at a moderate scale (measured: a 376 px
  // scan reads right at 2-3x, wrong at 4x). The wide fallback regions are scaled to one fixed
  // width whatever the enlargement, so this second scale re-reads only a located zone.
  // The first scale's text boxes, where they located a whole zone (locatedZone): the detector at
  // this scale would find the same lines (id-esp: line widths within two pixels of the first
  // scale's, scaled), so it is not run again. A zone located in part is detected afresh.
  const second = await readMrzAtScale(input, MODERATE_UPSCALE, ctx, false, first.located ?? null);
  const chosen = second.reading?.checksValid || !first.reading ? second : first;
  return {
    reading: chosen.reading,
    text: `${first.text}\n${second.text}`,
    readings: [...first.readings, ...second.readings],
    readViz: chosen.readViz,
  };
}

const MODERATE_UPSCALE = 2;

/**
 * Engine passes per scale before the fallback regions are given up: a located zone takes 1-4, the
 * lower half 1-4 more (the slowest development specimen used 6 in all).
 */
const MAX_PASSES = 6;

/** The recogniser's input height: a visual-zone word is read at its own width, not padded wider. */
const VIZ_MIN_INPUT_WIDTH = 48;

/** Fields the visual zone can confirm: it prints the names and (usually) the country codes. */
const VIZ_CONFIRMABLE = new Set(['surname', 'givenNames', 'issuingCountry', 'nationality']);

/**
 * True when a check-valid reading lacks confirmation only of fields the visual zone prints: reading
 * it (~10 ms a word) is then cheaper than another engine pass over the zone (60-250 ms each).
 */
/** True when the visual-zone fields in `uncertain` are country codes only (the names are settled). */
const onlyCodesLeft = (uncertain: string[]) =>
  uncertain.every((f) => !VIZ_CONFIRMABLE.has(f) || f === 'issuingCountry' || f === 'nationality');

const onlyVizLeft = (reading: MrzReading, readings: MrzEvidence[]) => {
  const left = confirmMrzFields(reading, readings).uncertain.filter((f) => f !== 'mrzLines');
  // A name with a one-letter part is never confirmed by the visual zone (nameInViz): a misread that
  // cut it short (id-che's `QUO` read `U` on the page), which only another engine pass can settle.
  // Nor is an absence (no given names): the page cannot print one.
  const vizCanConfirm = (f: string) =>
    VIZ_CONFIRMABLE.has(f) &&
    !((f === 'surname' || f === 'givenNames') && /(^|\s)\S(\s|$)/.test(reading[f].trim())) &&
    !(f === 'givenNames' && reading.givenNames.trim() === '');
  return reading.checksValid && left.length > 0 && left.every(vizCanConfirm);
};

/** A detected box of a short word (a country code's three letters are about twice as wide as tall). */
const isShortWord = (b: { width: number; height: number }) => b.width <= b.height * 3;

/** Visual-zone lines recognised between checks when confirming names (names are printed large). */
const VIZ_BATCH = 8;

/** Fields a second reading can confirm (no check digit covers them). */
const needsSecondReading = (reading: MrzReading, readings: MrzEvidence[]) =>
  confirmMrzFields(reading, readings).uncertain.length > 0;

/**
 * A scale's detected text boxes (the detector's own values) and that scale, kept when they located a
 * whole MRZ for a second scale to read again without detecting.
 */
type Located = { boxes: TextBox[]; factor: number } | null;

/**
 * The boxes a second scale may read instead of detecting again: only those that located a whole zone
 * (`mrzLines`, top first, the full line count of the format its first line announces). Rescaled
 * boxes cannot move, so a band missing a line, or holding a wrong line, is detected afresh.
 */
export function locatedZone(
  mrzLines: Array<{ text: string }>,
  boxes: TextBox[],
  factor: number,
): Located {
  return wholeZoneFormat(mrzLines) ? { boxes, factor } : null;
}

/** Boxes detected on the input enlarged by `from`, in the coordinates of the input enlarged by `to`. */
export function rescaleBoxes(
  boxes: TextBox[],
  from: number,
  to: number,
  image: { width: number; height: number },
): TextBox[] {
  const f = to / from;
  return boxes.map((b) => {
    const x = Math.min(image.width - 1, Math.max(0, Math.round(b.x * f)));
    const y = Math.min(image.height - 1, Math.max(0, Math.round(b.y * f)));
    return {
      x,
      y,
      width: Math.max(1, Math.min(image.width - x, Math.round(b.width * f))),
      height: Math.max(1, Math.min(image.height - y, Math.round(b.height * f))),
    };
  });
}

/**
 * The long, thin boxes an MRZ line can be (at least 8:1 and 45 % of the widest), the eight widest,
 * widest first. Chosen on `detected`, the detector's own values, and returned as the same boxes of
 * `read` (them rescaled to the image read): a rescaled box's rounding can take an 8:1 line under 8:1
 * (200 x 25 at 0.625 is 125 x 16).
 */
export function wideLineBoxes(detected: TextBox[], read: TextBox[] = detected): TextBox[] {
  const widest = Math.max(0, ...detected.map((b) => b.width));
  return detected
    .map((b, i) => ({ b, i }))
    .filter(({ b }) => b.width / b.height >= 8 && b.width >= widest * 0.45)
    .sort((p, q) => q.b.width - p.b.width)
    .slice(0, 8)
    .map(({ i }) => read[i]!);
}

/**
 * Below this tilt the page is read as it is (the plates' rectification threshold): id-esp's zone at
 * 1.0 degree read no better levelled and cost three times the CPU, for a second detection at each
 * scale.
 */
const DESKEW_MIN_DEGREES = MIN_RECTIFY_DEGREES;

/** What the corners uncovered by levelling are filled with: paper, not ink. */
const LEVELLING_BACKGROUND = { r: 255, g: 255, b: 255 };

/**
 * The tilt of the page's text (degrees, positive descending to the right): the median of the
 * detector's tilts over the widest lines (80 % of the widest or wider), the MRZ's. Not over every
 * wide line: headings, a title band or a light streak across the page can be as wide as half the
 * zone and at another angle (pass-lux's median over 45 % of the widest was 5.2 degrees, over its
 * widest lines 5.4). 0 when none is measured.
 */
export function pageTilt(boxes: Array<{ width: number; tilt?: number }>): number {
  const widest = Math.max(0, ...boxes.map((b) => b.width));
  const tilts = boxes
    .filter((b) => b.tilt !== undefined && b.width >= widest * 0.8)
    .map((b) => b.tilt!)
    .sort((a, b) => a - b);
  if (!tilts.length) return 0;
  const mid = tilts.length >> 1;
  return tilts.length % 2 ? tilts[mid]! : (tilts[mid - 1]! + tilts[mid]!) / 2;
}

async function readMrzAtScale(
  input: RawImage,
  factor: number,
  ctx: ReaderContext,
  fallbackRegions = true,
  located: Located = null,
): Promise<MrzScan> {
  let image =
    factor !== 1
      ? await toRaw(
          fromRaw(input).resize({
            width: Math.round(input.width * factor),
            kernel: 'lanczos3',
          }),
        )
      : input;
  /**
   * Engine passes over crops at this scale (tesseract or PaddleOCR): a fallback region is not begun
   * once this many are spent. A count, not a clock, so what is read does not depend on the load of
   * the machine (a 4 s wall-clock budget made one specimen unread when the machine was busy).
   */
  let passes = 0;
  const texts: string[] = [];
  const all: MrzReading[] = [];
  const independent: MrzEvidence[] = [];
  /** `group`: the engine family and the image it read (see MrzEvidence). */
  const readText = (text: string, group: string) => {
    texts.push(text);
    const lines = extractMrzLines(text);
    const reading = lines ? parseMrz(lines, ctx.now) : null;
    if (reading) {
      all.push(reading);
      independent.push({ reading, group: `${group}@${factor.toFixed(2)}` });
    }
    return reading;
  };
  const choose = (readings: MrzReading[]) =>
    readings
      .map((r) => ({ r, score: checkCount(r) * 1000 + agreement(r, readings) }))
      .sort((a, b) => b.score - a.score)[0]?.r ?? null;

  // Detect all text, but read only the long, thin lines an MRZ is made of.
  const detect = () =>
    detectTextBoxes(image, {
      maxSideLength: 960,
      intraOpThreads: ctx.intraOpThreads,
      measureTilt: true,
    });
  let detected = located?.boxes ?? (await detect());
  // A page held at an angle is levelled first, and its text detected again: the zone's crops, the
  // line boxes and tesseract's band all assume level lines (at 4 degrees, a 1400 px MRZ line climbs
  // ~100 px, more than two of its line heights).
  const tilt = located ? 0 : pageTilt(detected);
  // Beyond the plates' upper bound the corners' order is ambiguous: such a tilt is not a page's.
  const levelled = Math.abs(tilt) >= DESKEW_MIN_DEGREES && Math.abs(tilt) <= MAX_RECTIFY_DEGREES;
  if (levelled) {
    image = await toRaw(fromRaw(image).rotate(-tilt, { background: LEVELLING_BACKGROUND }));
    detected = await detect();
  }
  const boxes = located ? rescaleBoxes(detected, located.factor, factor, image) : detected;
  const wide = wideLineBoxes(detected, boxes);
  const lines = await readZoneLines(image, wide, ctx);
  const mrzLines = lines.filter((l) => looksLikeMrzLine(l.text)).sort((a, b) => a.box.y - b.box.y);
  const band = mrzBand(lines, image);
  const firstPaddle = band ? readText(mrzLines.map((l) => l.text).join('\n'), 'paddle:page') : null;
  // Boxes of a levelled image are not the next scale's: it levels its own.
  const locatedHere =
    band && !levelled ? locatedZone(mrzLines, detected, located?.factor ?? factor) : null;
  // The visual zone: the other text boxes above the MRZ, largest first (names are printed big).
  // Read in batches, largest first, until `enough` says the text read so far settles the question.
  // What was read of it so far: a later call (the reader's, after `finish` read some) goes on from
  // there instead of reading the same lines again.
  const vizRead = new Map<TextBox, string>();
  let vizBoxes: TextBox[] | null = null;
  const vizText = () => [...vizRead.values()].join('\n');
  const readViz = async (enough?: (text: string) => boolean, codesOnly = false) => {
    if (vizBoxes && enough?.(vizText())) return vizText();
    const top = band ? band.top : image.height;
    vizBoxes ??= boxes
      .filter((b) => !wide.includes(b) && b.y + b.height <= top + 2 && b.height >= 6)
      .sort((a, b) => b.height - a.height)
      .slice(0, 40);
    // Largest first (names are printed big); when only a country code is left to confirm, the
    // boxes of a short word first (a code printed alone: pass-lux's `LUX` was the 39th of 40 by
    // height), then the rest.
    const order = codesOnly
      ? [...vizBoxes].sort((a, b) => Number(!isShortWord(a)) - Number(!isShortWord(b)))
      : vizBoxes;
    const unread = order.filter((b) => !vizRead.has(b));
    for (let i = 0; i < unread.length; i += VIZ_BATCH) {
      // One line per recognition call: the runtime pads every line of a call to the widest one's
      // width-to-height ratio, so a short name read beside a long line cost as much as the long line
      // (pass-can's 31 visual-zone lines: 693 -> 503 ms CPU, the same text).
      for (const box of unread.slice(i, i + VIZ_BATCH)) {
        // At the width of its own text: a short word padded to the runtime's 320 px minimum cost
        // as much as a 6.7:1 line (pass-lux's 40 visual-zone lines: 600 -> 384 ms, the same names).
        const read = await recognizeBoxes(image, [box], {
          intraOpThreads: ctx.intraOpThreads,
          minInputWidth: VIZ_MIN_INPUT_WIDTH,
          characterScores: false,
        });
        vizRead.set(box, read.map((l) => l.text).join('\n'));
      }
      if (enough?.(vizText())) break;
    }
    return vizText();
  };

  /** This scale's answer: one shape whichever step chose `reading`. */
  const scan = (reading: MrzReading | null): MrzScan => ({
    reading,
    text: texts.join('\n'),
    readings: independent,
    readViz,
    located: locatedHere,
  });

  const regions: Array<{ rect: Rect; lineCount: number }> = [];
  if (band) {
    const td1 = mrzLines.length === 1 && mayBeTd1Line(mrzLines[0]!.text);
    regions.push({ rect: band, lineCount: td1 ? 3 : Math.max(2, Math.min(3, mrzLines.length)) });
  }
  if (fallbackRegions) {
    regions.push({
      rect: clampRect(
        { left: 0, top: image.height * 0.5, width: image.width, height: image.height * 0.5 },
        image,
      ),
      lineCount: 8,
    });
    if (!band)
      regions.push({
        rect: { left: 0, top: 0, width: image.width, height: image.height },
        lineCount: 16,
      });
  }

  for (const [regionIndex, region] of regions.entries()) {
    const { rect } = region;
    let { lineCount } = region;
    if (passes >= MAX_PASSES) break;
    const regionReadings: MrzReading[] = rect === band && firstPaddle ? [firstPaddle] : [];
    const scale = lineCount > 3 ? 1600 / rect.width : undefined;
    const regionPng = await mrzCrop(image, rect, lineCount, scale && 1600);
    let png = regionPng;
    /** In a wide region, the MRZ lines tesseract found there (image coordinates). */
    const zone: { found: ReturnType<typeof mrzLinesIn> } = { found: null };
    const ran = new Set<string>();
    /** The MRZ lines tesseract found on `png` (its coordinates), for PaddleOCR to read there too. */
    let tessLines: { png: Buffer; lines: OcrLine[] } | null = null;
    const tess = async (mode: TesseractMode, source = png, variant = '') => {
      ran.add(mode);
      passes++;
      const result = await ocrWithTesseract(source, {
        mode,
        psm: PSM.SINGLE_BLOCK,
        whitelist: MRZ_WHITELIST,
      });
      if (scale && source === regionPng) zone.found = mrzLinesIn(result.lines, rect, scale, image);
      if (source === png && !variant)
        tessLines = { png, lines: result.lines.filter((l) => looksLikeMrzLine(l.text)) };
      const r = readText(result.text, `tesseract:region${regionIndex}${variant}`);
      if (r) regionReadings.push(r);
      return r;
    };
    const paddleOnCrop = async () => {
      ran.add('paddle');
      passes++;
      const crop = await toRaw(sharp(png).removeAlpha().toColourspace('srgb'));
      // The page's MRZ lines, mapped into the crop: the detector, run again on the tight crop, missed
      // them on 4 of 11 specimens (no line, or a fragment), and its tighter boxes cost more to read.
      const mapped =
        rect === band && png === regionPng && mrzLines.length >= 2
          ? boxesInCrop(
              mrzLines.map((l) => l.box),
              rect,
              crop,
            )
          : null;
      // Else the lines tesseract found on this crop: PaddleOCR reads the same places with its own
      // recogniser (another engine on those pixels), without running its detector on the crop.
      const fromTesseract =
        !mapped && tessLines?.png === png && tessLines.lines.length >= 2
          ? padBoxes(
              tessLines.lines.map((l) => l.box),
              crop,
            )
          : null;
      const boxes = mapped ?? fromTesseract;
      const paddle = await (boxes
        ? recognizeBoxes(crop, boxes, {
            intraOpThreads: ctx.intraOpThreads,
            characterScores: false,
          })
        : ocrSelectedLines(crop, zoneLineBoxes, {
            maxSideLength: 960,
            intraOpThreads: ctx.intraOpThreads,
          }));
      const r = readText(
        paddle
          .filter((l) => looksLikeMrzLine(l.text))
          .map((l) => l.text)
          .join('\n'),
        `paddle:region${regionIndex}`,
      );
      if (r) regionReadings.push(r);
      return r;
    };
    /**
     * A check-valid reading whose names (or other uncovered fields) no second reading confirms yet
     * gets the engines that have not read this crop; then the legacy engine on a binarised crop.
     */
    const finish = async (reading: MrzReading): Promise<MrzScan> => {
      const second: Array<() => Promise<unknown>> = [];
      // PaddleOCR on the crop first, unless PaddleOCR already read this zone on the page: then it
      // is tesseract that may confirm what is left (another PaddleOCR reading only votes).
      const paddleRead = rect === band && firstPaddle !== null;
      if (!ran.has('paddle') && lineCount <= 3 && !paddleRead) second.push(paddleOnCrop);
      if (!ran.has('mrz-combined')) second.push(() => tess('mrz-combined'));
      second.push(async () =>
        tess('mrz', await sharp(png).threshold(140).png(UNCOMPRESSED_PNG).toBuffer(), '-binarised'),
      );
      if (!ran.has('paddle') && lineCount <= 3 && paddleRead) second.push(paddleOnCrop);
      let chosen = withAgreedNames(reading, independent, ctx.now);
      // Only names or country codes left to confirm: the visual zone first, the passes only if it
      // does not settle them (id-che: its nationality, disputed by the engines, is printed there).
      if (onlyVizLeft(chosen, independent)) {
        const settles = (viz: string) => confirmMrzFields(chosen, independent, viz).linesConfirmed;
        const codes = onlyCodesLeft(confirmMrzFields(chosen, independent).uncertain);
        if (settles(await readViz(settles, codes))) return scan(chosen);
      }
      for (const run of second) {
        if (!needsSecondReading(chosen, independent)) break;
        await run();
        chosen = withAgreedNames(chosen, independent, ctx.now);
      }
      return scan(chosen);
    };
    // Two independent readings that agree on a check-valid zone are enough; where they differ only
    // by a look-alike that the other reading's own check digit rejects, the check digit has ruled.
    const agreed = (r: MrzReading | null) =>
      r?.checksValid === true &&
      regionReadings.some(
        (o) => o !== r && (o.mrzLines.join() === r.mrzLines.join() || confirmsByCheckDigits(r, o)),
      );
    const legacy = await tess('mrz');
    // A wide region read once: every further reading is of the MRZ lines found there only.
    if (zone.found) {
      png = await mrzCrop(image, zone.found.rect, zone.found.lineCount);
      lineCount = zone.found.lineCount;
    }
    if (agreed(legacy) || (rect !== band && legacy?.checksValid)) return finish(legacy!);
    if (firstPaddle && rect === band && agreed(firstPaddle)) return finish(firstPaddle);
    // A check-valid reading with nothing left unconfirmed (its check digits pass where they cover
    // it, both engines read the rest alike) is the answer: a further reading of the zone (the usual
    // one here was PaddleOCR again, on the crop) could only vote, and one vote cannot outweigh two
    // engines. pass-ltu and pass-hrv: tesseract misread a digit, PaddleOCR's page reading passed.
    const settled = [legacy, rect === band ? firstPaddle : null].find(
      (r) => r?.checksValid && confirmMrzFields(r, independent).uncertain.length === 0,
    );
    if (settled) return finish(settled);
    // The two engines' check digits have ruled: PaddleOCR's page reading passes them, and
    // tesseract's fails them (it misread a covered character) or has the same check-digit lines.
    // A second PaddleOCR reading (the crop) would only vote on the uncovered fields; `finish`
    // spends tesseract's other readings on those first, which can confirm them.
    if (
      rect === band &&
      firstPaddle?.checksValid &&
      legacy &&
      (!legacy.checksValid ||
        checkedLinesAgree(
          independent.filter((e) => e.reading === legacy || e.reading === firstPaddle),
        ))
    )
      return finish(choose([firstPaddle, legacy])!);
    // PaddleOCR on the enlarged zone: a second engine, cheap, always consulted for a located zone.
    if (rect === band) {
      const r = await paddleOnCrop();
      const winner = [r, legacy, firstPaddle].find(agreed);
      if (winner) return finish(winner);
    }
    // The slower second tesseract reading is spent on the located zone only, within the budget.
    if (rect === band && passes < MAX_PASSES) {
      const combined = await tess('mrz-combined');
      if (agreed(combined)) return finish(combined!);
    }
    const voted = voteMrzLines(regionReadings.map((r) => r.mrzLines));
    const votedReading = voted ? parseMrz(voted, ctx.now) : null;
    if (votedReading) regionReadings.push(votedReading);
    const pick = choose(regionReadings);
    if (pick?.checksValid) return finish(pick);
    if (votedReading) all.push(votedReading);
    // A located zone that two engines read alike, check-digit lines and all, was found and read: its
    // checks fail in the print (or in a misread both engines share, which the second enlargement
    // re-reads), not because the zone was missed, so the lower half of the page is not read again.
    if (
      rect === band &&
      checkedLinesAgree(independent.filter((e) => regionReadings.includes(e.reading)))
    )
      break;
  }
  return scan(choose(all));
}

export function mrzFields(r: MrzReading): Record<string, unknown> {
  return {
    passportNumber: r.documentNumber,
    documentNumber: r.documentNumber,
    documentCode: r.documentCode,
    surname: r.surname,
    givenNames: r.givenNames,
    nationality: r.nationality,
    issuingCountry: r.issuingCountry,
    dateOfBirth: r.dateOfBirth,
    sex: r.sex,
    expiryDate: r.expiryDate,
    personalNumber: r.personalNumber,
    mrzFormat: r.format,
    mrzLines: r.mrzLines,
    rawMrzLines: r.rawLines,
    checksValid: r.checksValid,
    checks: r.checks,
    corrected: r.corrected,
  };
}

export async function readPassport(image: RawImage, ctx: ReaderContext): Promise<ReadResult> {
  const { reading, text, readings, readViz } = await readMrzFromImage(image, ctx);
  if (!reading) {
    return {
      ok: false,
      type: 'passport',
      error: 'No machine-readable zone found in the image.',
      text,
      fields: {},
      confidence: 0,
    };
  }
  let confirmation = confirmMrzFields(reading, readings);
  // Names (or country codes) no second MRZ reading confirms: the visual zone prints them in another
  // font.
  const namesUnsure = (c: typeof confirmation) => c.uncertain.some((f) => VIZ_CONFIRMABLE.has(f));
  if (reading.checksValid && namesUnsure(confirmation)) {
    const check = (viz: string) => confirmMrzFields(reading, readings, viz);
    // The names first, from the largest boxes, until only country codes are left; then the codes,
    // from the boxes of short words. Stops as soon as the visual zone confirms what it can.
    if (!onlyCodesLeft(confirmation.uncertain))
      confirmation = check(await readViz((viz) => onlyCodesLeft(check(viz).uncertain)));
    if (namesUnsure(confirmation))
      confirmation = check(
        await readViz((viz) => !namesUnsure(check(viz)), onlyCodesLeft(confirmation.uncertain)),
      );
  }
  const { uncertain, fieldConfidence } = confirmation;
  const warnings: string[] = [];
  if (!reading.checksValid) warnings.push('MRZ check digits fail: verify the document by hand.');
  else if (uncertain.length)
    warnings.push(`Not confirmed by a second reading: ${uncertain.join(', ')}. Check them.`);
  return {
    ok: true,
    type: 'passport',
    fields: mrzFields(reading),
    text: reading.mrzLines.join('\n'),
    source: 'mrz',
    confidence: reading.checksValid ? (uncertain.length ? 0.7 : 0.98) : 0.3,
    uncertain,
    fieldConfidence,
    ...(warnings.length ? { warnings } : {}),
  };
}
