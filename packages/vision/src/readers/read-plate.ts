import { normalisePlate } from '@boomgate/contracts/plates';

import {
  type PlateCandidate,
  type PlateCandidateInput,
  isPlateConfirmed,
  rankLettersOnlyCandidates,
  rankPlateCandidates,
  scorePlateCandidate,
} from '../documents/plate';
import { applyFusion } from '../documents/plate-fusion';
import { type RawImage, clampRect, fromRaw, toGrey, toRaw } from '../image/decode-image';
import type { OcrLine } from '../ocr/ocr-line';
import { type TextBox, detectTextBoxes, ocrWithPaddle, recognizeBoxes } from '../ocr/paddle';
import { quadInCrop, textHeight } from '../ocr/text-quad';
import type { ReadResult } from '../types';

import { analyseRow, emblemPlaces, paintOver, withoutPlaces } from './plate-emblems';
import { fragmentRegions, joinNeighbours } from './plate-groups';
import type { ReaderContext } from './reader-context';

/**
 * `source` names the recognition (two sources agreeing confirm a plate); `box`, when given, is where
 * in the full image these lines were read (crop coordinates are not the image's).
 */
function toInputs(
  lines: OcrLine[],
  imageHeight: number,
  source: string,
  { bonus = 0, box }: { bonus?: number; box?: TextBox } = {},
): PlateCandidateInput[] {
  return [...lines, ...joinNeighbours(lines)].map((l) => ({
    text: l.text,
    confidence: Math.min(1, l.confidence + bonus),
    relativeHeight: textHeight(l.box) / imageHeight,
    source,
    box: box ?? l.box,
    ...(l.chars ? { chars: l.chars } : {}),
  }));
}

const PLATE_MIN_TEXT_HEIGHT = 64;
/** First detection pass (736 px measured 3 plates worse on plates_openalpr); small plates get a full-resolution pass. */
const FIRST_PASS_SIDE = 960;

/**
 * Crops a detected line from the full-resolution image, with margin, scaled so text is ~64 px tall;
 * returns the crop and the line's box inside it.
 */
async function cropLine(
  image: RawImage,
  line: Pick<OcrLine, 'box'>,
  { textHeight: targetHeight = PLATE_MIN_TEXT_HEIGHT, grey = false } = {},
): Promise<{ crop: RawImage; box: TextBox }> {
  // A tilted line's box is taller than its text: margins and enlargement follow the text.
  const lineHeight = Math.min(line.box.height, textHeight(line.box));
  const mx = lineHeight * 0.6;
  const my = lineHeight * 0.6;
  const rect = clampRect(
    {
      left: line.box.x - mx,
      top: line.box.y - my,
      width: line.box.width + 2 * mx,
      height: line.box.height + 2 * my,
    },
    image,
  );
  const factor = Math.min(4, Math.max(1, targetHeight / lineHeight));
  const resized = fromRaw(image)
    .extract(rect)
    .resize({
      width: Math.round(rect.width * factor),
      height: Math.round(rect.height * factor),
      kernel: 'cubic',
    });
  const crop = await toRaw(grey ? resized.greyscale().normalise().toColourspace('srgb') : resized);
  const pad = lineHeight * 0.15;
  const x = Math.max(0, Math.floor((line.box.x - pad - rect.left) * factor));
  const y = Math.max(0, Math.floor((line.box.y - pad - rect.top) * factor));
  const points = line.box.points
    ? quadInCrop(line.box.points, { x: rect.left, y: rect.top }, factor)
    : undefined;
  const box = {
    x,
    y,
    width: Math.max(1, Math.min(crop.width - x, Math.round((line.box.width + 2 * pad) * factor))),
    height: Math.max(
      1,
      Math.min(crop.height - y, Math.round((line.box.height + 2 * pad) * factor)),
    ),
    // The tilted line's corners in the crop: the confirming read levels it too.
    ...(points ? { points } : {}),
  };
  return { crop, box };
}

function plateResult(
  ranked: PlateCandidate[],
  text: string,
  source: 'ocr',
  confirmed: boolean,
): ReadResult {
  const best = ranked[0];
  if (!best) {
    return {
      ok: false,
      type: 'plate',
      error: 'No plate found in the image.',
      text,
      fields: {},
      confidence: 0,
    };
  }
  return {
    ok: true,
    type: 'plate',
    fields: {
      plateNumber: best.plateNumber,
      registrationNumber: best.plateNumber,
      extractedPlate: best.displayPlate,
      displayPlate: best.displayPlate,
      pattern: best.pattern,
    },
    text,
    source,
    confidence: Number(best.confidence.toFixed(3)),
    alternatives: ranked.slice(1, 6).map((c) => ({
      value: c.plateNumber,
      confidence: Number(c.confidence.toFixed(3)),
      ...(c.pattern ? { pattern: c.pattern } : {}),
    })),
    uncertain: confirmed ? [] : PLATE_FIELDS,
    fieldConfidence: Object.fromEntries(
      PLATE_FIELDS.map((f) => [
        f,
        confirmed ? Math.max(0.9, best.confidence) : Math.min(0.6, best.confidence),
      ]),
    ),
    ...(best.warnings.length || !confirmed
      ? {
          warnings: [
            ...best.warnings,
            ...(confirmed ? [] : ['The plate was not confirmed by a second reading: check it.']),
          ],
        }
      : {}),
  };
}

/** Every plate field is the same reading in another form: confirmed or not together. */
const PLATE_FIELDS = [
  'plateNumber',
  'registrationNumber',
  'extractedPlate',
  'displayPlate',
  'pattern',
];

/** Detects text at one resolution and reads the plate-shaped boxes (not paragraphs, not specks). */
async function detectAndRead(
  image: RawImage,
  maxSideLength: number,
  ctx: ReaderContext,
  skip: OcrLine[] = [],
): Promise<OcrLine[]> {
  const boxes = await detectTextBoxes(image, {
    maxSideLength,
    intraOpThreads: ctx.intraOpThreads,
    levelTiltedLines: true,
  });
  const overlapsRead = (b: TextBox) =>
    skip.some((l) => {
      const x = Math.max(
        0,
        Math.min(b.x + b.width, l.box.x + l.box.width) - Math.max(b.x, l.box.x),
      );
      const y = Math.max(
        0,
        Math.min(b.y + b.height, l.box.y + l.box.height) - Math.max(b.y, l.box.y),
      );
      return x * y > 0.5 * b.width * b.height;
    });
  // A lone group of a plate split by the detector (`B` of `B 123 BCD`, `L`) is narrow: accepted
  // when its characters are big in the frame, where specks are not.
  const minAspect = (b: TextBox) => (b.height >= image.height * 0.08 ? 0.3 : 0.8);
  const candidates = boxes
    .filter(
      (b) =>
        b.height >= 8 &&
        b.width / b.height >= minAspect(b) &&
        b.width / b.height <= 14 &&
        !overlapsRead(b),
    )
    .sort((a, b) => b.height - a.height)
    .slice(0, 24);
  const read = await recognizeBoxes(image, candidates, { intraOpThreads: ctx.intraOpThreads });
  return withAxisAlignedRereads(image, candidates, read, ctx);
}

/**
 * A tilted line is read levelled along its corners (recognizeBoxes) and, once more, from its
 * axis-aligned box as before rectification; the reading the recogniser is surer of stands (one
 * detection, one source). Levelling wins clearly beyond a few degrees (generated plates at 25°: 8/8
 * against 4/8); at 2-6° (every tilted street photo of the development set) either crop can be the
 * better one, and the recognition confidence picks instead of a tilt threshold.
 */
async function withAxisAlignedRereads(
  image: RawImage,
  boxes: TextBox[],
  levelled: OcrLine[],
  ctx: ReaderContext,
): Promise<OcrLine[]> {
  // A line whose levelled reading has more letters and digits than any plate (a phone number, a
  // web address, a slogan) is not read twice: the other crop of the same box holds the same text.
  const plateLength = (b: TextBox) => {
    const line = levelled.find((l) => l.box.x === b.x && l.box.y === b.y);
    return !line || normalisePlate(line.text).length <= MAX_PLATE_CHARS;
  };
  const tilted = boxes.filter((b) => b.points && plateLength(b));
  if (!tilted.length) return levelled;
  const axis = await recognizeBoxes(
    image,
    tilted.map((b) => ({ x: b.x, y: b.y, width: b.width, height: b.height })),
    { intraOpThreads: ctx.intraOpThreads },
  );
  const out = [...levelled];
  for (const a of axis) {
    const i = out.findIndex((l) => l.box.x === a.box.x && l.box.y === a.box.y);
    if (i < 0) out.push(a);
    else if (a.confidence > out[i]!.confidence) out[i] = a;
  }
  return out;
}

/** Second look at the best few plate-like lines, enlarged from the full-resolution image. */
async function reReadPlateLike(
  image: RawImage,
  lines: OcrLine[],
  inputs: PlateCandidateInput[],
  ctx: ReaderContext,
) {
  const top = rankPlateCandidates(inputs).slice(0, 3);
  const plateLike = lines
    .filter((l) =>
      top.some(
        (c) =>
          rankPlateCandidates([{ text: l.text, confidence: l.confidence }])[0]?.plateNumber ===
          c.plateNumber,
      ),
    )
    .slice(0, 3);
  // Large text needs no enlargement; it still gets a second read (a tighter crop) when the plate
  // grammar confirms nothing read so far (foreign or unusual plates), never when it has (SA plates).
  const strict = (c: PlateCandidate | undefined) =>
    c?.pattern != null && !/PERSONALISED/.test(c.pattern);
  const grammarConfirmed = strict(top[0]);
  for (const line of plateLike) {
    if (textHeight(line.box) >= PLATE_MIN_TEXT_HEIGHT * 0.9 && grammarConfirmed) continue;
    // Detection again on the enlarged crop gives tighter boxes than mapping the first box (measured).
    const { crop } = await cropLine(image, line);
    const cropLines = await ocrWithPaddle(crop, {
      maxSideLength: 960,
      intraOpThreads: ctx.intraOpThreads,
    });
    // For small text the enlarged read is the better one and gets a small bonus; otherwise it is one more vote.
    const bonus = textHeight(line.box) < 32 ? 0.05 : 0;
    inputs.push(
      ...toInputs(cropLines, crop.height, `reread:${line.box.x},${line.box.y}`, {
        bonus,
        box: line.box,
      }).map((i) => ({
        ...i,
        relativeHeight: textHeight(line.box) / image.height,
      })),
    );
  }
}

/** Fragments (a few characters) looked around per read: each costs one detection + recognition. */
const MAX_FRAGMENTS = 2;
/**
 * The region is 6 text heights tall and enlarged so text is ~64 px: the detector found nothing in a
 * crop the text filled (a plate in a tight 470x143 crop), nor with text at ~48 px.
 */
const AROUND_TEXT_HEIGHT = PLATE_MIN_TEXT_HEIGHT;

/**
 * A small plate is often detected in pieces, some of them not read (`ATG` read, `L04` beside it
 * lost): a short fragment of confident text is a plate's part as often as a badge. The region
 * around the largest such fragments, widened to a plate's proportions on either side, is cropped
 * from the full-resolution image, enlarged and read again (detection + recognition), so the whole
 * plate can be read as one line. One more region per fragment, each its own recognition.
 */
async function readAroundFragments(
  image: RawImage,
  lines: OcrLine[],
  inputs: PlateCandidateInput[],
  ctx: ReaderContext,
): Promise<string[]> {
  const texts: string[] = [];
  for (const { fragment, rect } of fragmentRegions(lines, image, MAX_FRAGMENTS)) {
    const h = textHeight(fragment.box);
    const factor = Math.min(4, Math.max(1, AROUND_TEXT_HEIGHT / h));
    const crop = await toRaw(
      fromRaw(image)
        .extract(rect)
        .resize({
          width: Math.round(rect.width * factor),
          height: Math.round(rect.height * factor),
          kernel: 'cubic',
        }),
    );
    const read = await ocrWithPaddle(crop, {
      maxSideLength: 960,
      intraOpThreads: ctx.intraOpThreads,
    });
    const box = { x: rect.left, y: rect.top, width: rect.width, height: rect.height };
    inputs.push(
      ...toInputs(read, crop.height, `around:${fragment.box.x},${fragment.box.y}`).map((i) => ({
        ...i,
        // Boxes in the full image: the region's top-left plus the line's box scaled back.
        box: {
          x: box.x + i.box!.x / factor,
          y: box.y + i.box!.y / factor,
          width: i.box!.width / factor,
          height: i.box!.height / factor,
        },
        relativeHeight: (i.relativeHeight! * crop.height) / factor / image.height,
      })),
    );
    texts.push(...read.map((l) => l.text));
  }
  return texts;
}

/**
 * Not confirmed by two recognitions yet: one more read of the best plate's region through another
 * preprocessing (grey, contrast-stretched, another scale). Recognition only, of the plate's box in
 * the new crop: no second detection pass (measured: detection on the crop made SA plate reads
 * ~1.8x slower).
 */
async function confirmBest(
  image: RawImage,
  ranked: PlateCandidate[],
  inputs: PlateCandidateInput[],
  texts: string[],
  ctx: ReaderContext,
): Promise<PlateCandidate[]> {
  const best = ranked[0];
  if (!best?.box || isPlateConfirmed(ranked)) return ranked;
  const { crop, box } = await cropLine(image, { box: best.box }, { textHeight: 48, grey: true });
  const confirmLines = await recognizeBoxes(crop, [box], { intraOpThreads: ctx.intraOpThreads });
  inputs.push(
    ...toInputs(confirmLines, crop.height, `confirm:${best.plateNumber}`, { box: best.box }).map(
      (i) => ({ ...i, relativeHeight: textHeight(best.box!) / image.height }),
    ),
  );
  texts.push(...confirmLines.map((l) => l.text));
  return rankFused(inputs);
}

/**
 * An unconfirmed plate whose reading has one character more per emblem than its row has characters
 * (plate-emblems.ts): the row of the best plate, cut from the full-resolution image in grey at ~64 px
 * text, is segmented into ink components; when one of the best few readings is exactly that much
 * longer, the emblems are painted over in the background's grey and the line is recognised again.
 * When that recognition reads the same plate without the characters at the emblem places, it is
 * returned, for the reader to rank first, never confirmed: one recognition of an edited image. A
 * plate whose reading is as long as its row (most plates with an emblem) is left as it was.
 */
async function readPastEmblems(
  image: RawImage,
  ranked: PlateCandidate[],
  ctx: ReaderContext,
): Promise<PlateCandidate | null> {
  const best = ranked[0];
  if (!best?.box) return null;
  const { crop, box } = await cropLine(image, { box: best.box }, { grey: true });
  // The row is analysed where the line is; the painted crop is read with detection again (measured:
  // recognising the mapped box alone dropped a character next to the painted gap).
  const grey = toGrey(crop);
  const rect = clampRect({ left: box.x, top: box.y, width: box.width, height: box.height }, grey);
  const row = {
    data: new Uint8Array(rect.width * rect.height),
    width: rect.width,
    height: rect.height,
  };
  for (let y = 0; y < rect.height; y++)
    row.data.set(
      grey.data.subarray(
        (rect.top + y) * grey.width + rect.left,
        (rect.top + y) * grey.width + rect.left + rect.width,
      ),
      y * rect.width,
    );
  const analysis = analyseRow(row);
  for (const candidate of ranked.slice(0, 5)) {
    const places = emblemPlaces(analysis, candidate.plateNumber);
    if (!places) continue;
    const cleaned = paintOver(row, analysis.emblems);
    const painted = Buffer.from(grey.data);
    for (let y = 0; y < rect.height; y++)
      painted.set(
        cleaned.data.subarray(y * rect.width, (y + 1) * rect.width),
        (rect.top + y) * grey.width + rect.left,
      );
    const lines = await ocrWithPaddle(
      { data: painted, width: grey.width, height: grey.height, channels: 1 },
      { maxSideLength: 960, intraOpThreads: ctx.intraOpThreads },
    );
    const expected = withoutPlaces(candidate.plateNumber, places);
    const line = lines.find((l) => normalisePlate(l.text) === expected);
    if (!line) return null;
    const read = scorePlateCandidate({
      text: line.text,
      confidence: line.confidence,
      relativeHeight: textHeight(best.box) / image.height,
      box: best.box,
      ...(line.chars ? { chars: line.chars } : {}),
    });
    if (!read || read.plateNumber !== expected) return null;
    return {
      ...read,
      warnings: [
        ...read.warnings,
        'A mark between the characters (an emblem or sticker) was left out of the reading: check it.',
      ],
    };
  }
  return null;
}

/** No plate in any series the reader knows has more letters and digits than this (scorePlateCandidate). */
const MAX_PLATE_CHARS = 10;

/** Read as it is by two recognitions, and long enough to be a whole plate rather than a group of one. */
const readWholeTwice = (best: PlateCandidate | undefined) =>
  best !== undefined &&
  !best.lettersOnly &&
  best.directSources.size >= 2 &&
  best.plateNumber.length >= 5;

/** Candidates ranked, the best one replaced by the character-level fusion of its readings (plate-fusion.ts). */
const rankFused = (inputs: PlateCandidateInput[]) =>
  applyFusion(rankPlateCandidates(inputs), inputs);

/**
 * Plates: PaddleOCR detects text at 960 px and reads plate-shaped boxes; the most plate-like lines are
 * cropped from the full-resolution image, enlarged and read again. When nothing convincing is found,
 * detection runs again at full resolution (small, distant plates). No tesseract last resort: on the
 * 142 development plates (street photos and generated SA/SADC) it never gave the plate read, and it
 * cost about 3 s of CPU on each photo it ran on, the slowest reads (issue 20, speed).
 * Candidates are ranked with the SA/SADC patterns (sa-documents §5).
 */
export async function readPlate(image: RawImage, ctx: ReaderContext): Promise<ReadResult> {
  const lines = await detectAndRead(image, FIRST_PASS_SIDE, ctx);
  const inputs = toInputs(lines, image.height, 'detect');
  await reReadPlateLike(image, lines, inputs, ctx);
  let ranked = rankFused(inputs);
  let text = lines.map((l) => l.text).join('\n');
  const allLines = [...lines];

  // The full-resolution pass is there to find a plate the first pass missed (small, distant), and
  // is not spent once two recognitions confirm one (~300 ms CPU on a 1280 px photo). Its readings
  // could also have vetoed that plate (a near variant read there) or found another plate beside
  // it; measured, on the 90 street photos and under the nine camera effects of `npm run
  // eval:stress`, no reading changed (docs/vision/accuracy.md, part ae).
  const longSide = Math.max(image.width, image.height);
  const firstPassSettled =
    ranked.length > 0 && (ranked[0]!.confidence >= 0.75 || isPlateConfirmed(ranked));
  if (!firstPassSettled && longSide > 1000) {
    const more = await detectAndRead(image, Math.min(1920, longSide), ctx, lines);
    const moreInputs = toInputs(more, image.height, 'detect-full');
    await reReadPlateLike(image, more, moreInputs, ctx);
    inputs.push(...moreInputs);
    allLines.push(...more);
    ranked = rankFused(inputs);
    text = [text, ...more.map((l) => l.text)].join('\n');
  }

  const texts = [text];
  ranked = await confirmBest(image, ranked, inputs, texts, ctx);
  // Still not confirmed: the plate may have been read in pieces; look around the fragments, and
  // when that changes the best plate, give the new one its confirming read too. A plate that two
  // recognitions read whole, glyph for glyph, was not read in pieces (it is unconfirmed for a
  // look-alike or a mark, which the fragments cannot settle): the regions are not spent on it.
  if (!isPlateConfirmed(ranked) && !readWholeTwice(ranked[0])) {
    const before = ranked[0]?.plateNumber;
    const around = await readAroundFragments(image, allLines, inputs, ctx);
    if (around.length) {
      texts.push(...around);
      ranked = rankFused(inputs);
      if (ranked[0]?.plateNumber !== before)
        ranked = await confirmBest(image, ranked, inputs, texts, ctx);
    }
  }
  text = texts.join('\n');
  if (!ranked.length) {
    // Nothing with a digit: a letters-only plate, never confirmed (a word on the vehicle reads the same).
    const letters = rankLettersOnlyCandidates(inputs);
    return plateResult(letters, text, 'ocr', false);
  }
  if (isPlateConfirmed(ranked)) return plateResult(ranked, text, 'ocr', true);
  const pastEmblems = await readPastEmblems(image, ranked, ctx);
  if (pastEmblems)
    ranked = [pastEmblems, ...ranked.filter((c) => c.plateNumber !== pastEmblems.plateNumber)];
  return plateResult(ranked, text, 'ocr', false);
}
