import { describe, expect, it } from 'vitest';

import { parseMrz } from '../documents/mrz';
import type { MrzEvidence } from '../documents/mrz-confirm';

import {
  boxesInCrop,
  checkedLinesAgree,
  isPastZone,
  locatedZone,
  mrzBand,
  pageTilt,
  rescaleBoxes,
  wideLineBoxes,
  withAgreedNames,
  zoneLineBoxes,
} from './read-passport';

const NOW = new Date('2026-01-01T00:00:00Z');
const TD3 = [
  'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<',
  'L898902C36UTO7408122F1204159ZE184226B<<<<<10',
];
const TD1 = [
  'I<UTOD231458907<<<<<<<<<<<<<<<',
  '7408122F1204159UTO<<<<<<<<<<<6',
  'ERIKSSON<<ANNA<MARIA<<<<<<<<<<',
];
/** The same card with every line over-read by three fillers: 33 characters, as long as TD2's near. */
const TD1_OVER_READ = TD1.map((l) => `${l}<<<`);
/** The same zone with its composite check digit misprinted: the check fails. */
const BAD_NUMBER = [TD3[0]!, TD3[1]!.replace(/0$/, '7')];
const evidence = (lines: string[], group: string): MrzEvidence => ({
  reading: parseMrz(lines, NOW)!,
  group,
});

describe('zoneLineBoxes', () => {
  it('keeps the long lines of a zone crop and drops short visual-zone boxes', () => {
    const boxes = [{ width: 100 }, { width: 16 }, { width: 723 }, { width: 732 }, { width: 302 }];

    expect(zoneLineBoxes(boxes)).toEqual([false, false, true, true, true]);
  });

  it('keeps nothing from nothing', () => {
    expect(zoneLineBoxes([])).toEqual([]);
  });
});

describe('boxesInCrop', () => {
  it('maps page boxes into a scaled crop and keeps them inside it', () => {
    const rect = { left: 100, top: 400, width: 500, height: 100 };
    const crop = { width: 1000, height: 200 };

    expect(
      boxesInCrop(
        [
          { x: 120, y: 420, width: 400, height: 20 },
          { x: 90, y: 470, width: 600, height: 40 },
        ],
        rect,
        crop,
      ),
    ).toEqual([
      { x: 40, y: 40, width: 800, height: 40 },
      { x: 0, y: 140, width: 1000, height: 60 },
    ]);
  });
});

describe('checkedLinesAgree', () => {
  it('holds when two independent engines read the checked line alike, even with failing checks', () => {
    const a = evidence(BAD_NUMBER, 'paddle:page@2.00');
    const b = evidence(BAD_NUMBER, 'tesseract:region0@2.00');

    expect(a.reading.checksValid).toBe(false);
    expect(checkedLinesAgree([a, b])).toBe(true);
  });

  it('does not hold for two readings of one engine group', () => {
    const a = evidence(BAD_NUMBER, 'tesseract:region0@2.00');
    const b = evidence(BAD_NUMBER, 'tesseract:region0@2.00');

    expect(checkedLinesAgree([a, b])).toBe(false);
  });

  it('does not hold when the checked lines differ, whatever the names', () => {
    const a = evidence(TD3, 'paddle:page@2.00');
    const b = evidence(BAD_NUMBER, 'tesseract:region0@2.00');
    const c = evidence([TD3[0]!.replace('ANNA', 'ANMA'), TD3[1]!], 'paddle:region0@2.00');

    expect(checkedLinesAgree([a, b])).toBe(false);
    expect(checkedLinesAgree([a, c])).toBe(true);
  });
});

describe('withAgreedNames', () => {
  const misread = [TD3[0]!.replace('MARIA', 'MARLA'), TD3[1]!];

  it('takes the name two other groups read alike over the one the chosen reading has alone', () => {
    const chosen = evidence(misread, 'paddle:region0@2.00');
    const evidences = [
      chosen,
      evidence(TD3, 'paddle:page@2.00'),
      evidence(TD3, 'tesseract:region0@2.00'),
    ];

    const result = withAgreedNames(chosen.reading, evidences, NOW);

    expect(result.mrzLines).toEqual(TD3);
    expect(result.givenNames).toBe('ANNA MARIA');
    expect(result.documentNumber).toBe(chosen.reading.documentNumber);
    expect(result.checks).toEqual(chosen.reading.checks);
  });

  it('takes each name on its own: agreed given names, the surname kept where engines differ', () => {
    const chosen = evidence(
      [TD3[0]!.replace('ERIKSSON<<ANNA<MARIA<', 'ERIKSON<<<ANNA<MARLA<'), TD3[1]!],
      'paddle:region0@2.00',
    );
    const evidences = [
      chosen,
      evidence([TD3[0]!.replace('ERIKSSON', 'FRIKSSON'), TD3[1]!], 'paddle:page@2.00'),
      evidence([TD3[0]!.replace('ERIKSSON', 'EPIKSSON'), TD3[1]!], 'tesseract:region0@2.00'),
    ];

    const result = withAgreedNames(chosen.reading, evidences, NOW);

    expect(result.surname).toBe('ERIKSON');
    expect(result.givenNames).toBe('ANNA MARIA');
    expect(result.mrzLines[0]).toBe('P<UTOERIKSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<<');
  });

  it('keeps the name when no rival has two groups, or two rivals tie', () => {
    const chosen = evidence(misread, 'paddle:region0@2.00');
    const other = [TD3[0]!.replace('ANNA', 'ANMA'), TD3[1]!];

    expect(withAgreedNames(chosen.reading, [chosen, evidence(TD3, 'paddle:page@2.00')], NOW)).toBe(
      chosen.reading,
    );
    expect(
      withAgreedNames(
        chosen.reading,
        [
          chosen,
          evidence(TD3, 'paddle:page@2.00'),
          evidence(TD3, 'tesseract:region0@2.00'),
          evidence(other, 'paddle:page@4.00'),
          evidence(other, 'tesseract:region0@4.00'),
        ],
        NOW,
      ),
    ).toBe(chosen.reading);
  });

  it('does not count two readings of one group as two', () => {
    const chosen = evidence(misread, 'paddle:region0@2.00');
    const evidences = [
      chosen,
      evidence(TD3, 'tesseract:region0@2.00'),
      evidence(TD3, 'tesseract:region0@2.00'),
    ];

    expect(withAgreedNames(chosen.reading, evidences, NOW)).toBe(chosen.reading);
  });

  it('counts tesseract on a crop and on its binarised copy as one engine', () => {
    const chosen = evidence(misread, 'paddle:region0@2.00');
    const evidences = [
      chosen,
      evidence(TD3, 'tesseract:region0@2.00'),
      evidence(TD3, 'tesseract:region0-binarised@2.00'),
    ];

    expect(withAgreedNames(chosen.reading, evidences, NOW)).toBe(chosen.reading);
  });
});

describe('mrzBand', () => {
  const page = { width: 1600, height: 1000, channels: 3 as const, data: Buffer.alloc(0) };
  const line = (text: string, y: number) => ({
    text,
    confidence: 0.9,
    box: { x: 100, y, width: 1400, height: 40 },
  });

  it('reaches two lines below a lone line of ID-card length (the first of three TD1 lines)', () => {
    const band = mrzBand([line('IAUSA0000000033LIN1044750079<<', 600)], page)!;

    expect(band.top).toBe(600 - 88);
    expect(band.top + band.height).toBe(600 + 40 + 160);
  });

  it('reaches two lines below a lone card first line over-read by a few fillers', () => {
    const band = mrzBand([line(`${TD1[0]!}<<<<<<`, 600)], page)!;

    expect(band.top + band.height).toBe(600 + 40 + 160);
  });

  it('reaches one line above a lone passport-length line, and little below it', () => {
    const band = mrzBand([line('L898902C36UTO7408122F1204159ZE184226B<<<<<10', 600)], page)!;

    expect(band.top).toBe(600 - 88);
    expect(band.top + band.height).toBe(600 + 40 + 32);
  });
});

describe('isPastZone', () => {
  const line = (text: string, y: number) => ({
    text,
    confidence: 0.9,
    box: { x: 100, y, width: 1400, height: 40 },
  });
  const box = (y: number) => ({ y, height: 40 });

  it('reads on until two MRZ lines are read', () => {
    expect(isPastZone([], box(0))).toBe(false);
    expect(isPastZone([line(TD3[1]!, 600)], box(0))).toBe(false);
  });

  it('stops above two passport-length lines: TD2, TD3 and MRV zones have two', () => {
    expect(isPastZone([line(TD3[1]!, 660), line(TD3[0]!, 600)], box(540))).toBe(true);
  });

  it('reads on to the first line of a card whose lines were over-read by a few fillers', () => {
    const lower = [line(TD1_OVER_READ[2]!, 720), line(TD1_OVER_READ[1]!, 660)];

    expect(isPastZone(lower, box(600))).toBe(false);
    expect(isPastZone([...lower, line(TD1_OVER_READ[0]!, 600)], box(540))).toBe(true);
  });

  it('stops above a whole card, the first line read, however close the next box', () => {
    const card = [line(TD1[2]!, 720), line(TD1[1]!, 660), line(TD1[0]!, 600)];

    expect(isPastZone(card, box(560))).toBe(true);
  });

  it('keeps to the pitch when the top line read opens no zone (its document code misread)', () => {
    const misread = [line(TD3[1]!, 660), line(`B${TD3[0]!.slice(1)}`, 600)];

    expect(isPastZone(misread, box(540))).toBe(false);
    expect(isPastZone(misread, box(500))).toBe(true);
  });

  it('reads a third line of ID-card length one pitch above, not two pitches above', () => {
    const td1 = [
      line('SPECIMEN<<TEST<<<<<<<<<<<<<<<', 720),
      line('5808175F1004022USA<<<<<<<<<<4', 660),
    ];

    expect(isPastZone(td1, box(600))).toBe(false);
    expect(isPastZone(td1, box(560))).toBe(true);
  });
});

describe('rescaleBoxes', () => {
  it('maps boxes found at one enlargement to another, inside the image', () => {
    const boxes = [
      { x: 100, y: 800, width: 1400, height: 80 },
      { x: 1500, y: 1000, width: 200, height: 60 },
    ];

    expect(rescaleBoxes(boxes, 4, 2, { width: 800, height: 540 })).toEqual([
      { x: 50, y: 400, width: 700, height: 40 },
      { x: 750, y: 500, width: 50, height: 30 },
    ]);
  });
});

describe('locatedZone', () => {
  const boxes = [{ x: 100, y: 800, width: 1400, height: 80 }];
  const lines = (texts: string[]) => texts.map((text) => ({ text }));

  it('keeps the boxes of a whole zone for the second scale', () => {
    expect(locatedZone(lines(TD3), boxes, 4)).toEqual({ boxes, factor: 4 });
    expect(locatedZone(lines(TD1), boxes, 4)).toEqual({ boxes, factor: 4 });
    expect(locatedZone(lines(TD1_OVER_READ), boxes, 4)).toEqual({ boxes, factor: 4 });
  });

  it('detects again where the zone was located in part or by a line that opens no zone', () => {
    expect(locatedZone(lines(TD1_OVER_READ.slice(0, 2)), boxes, 4)).toBeNull();
    expect(locatedZone(lines(TD1.slice(1)), boxes, 4)).toBeNull();
    expect(locatedZone(lines([TD3[1]!]), boxes, 4)).toBeNull();
    expect(locatedZone(lines([TD3[1]!, TD3[0]!]), boxes, 4)).toBeNull();
  });
});

describe('wideLineBoxes', () => {
  it('keeps the long thin boxes, widest first, and drops short words and narrow lines', () => {
    const boxes = [
      { x: 0, y: 0, width: 700, height: 40 },
      { x: 0, y: 50, width: 1400, height: 60 },
      { x: 0, y: 120, width: 300, height: 100 },
      { x: 0, y: 240, width: 500, height: 40 },
    ];

    expect(wideLineBoxes(boxes)).toEqual([boxes[1], boxes[0]]);
  });

  it('chooses on the detected boxes, so a rescaled line rounded under 8:1 is still read', () => {
    const detected = [
      { x: 40, y: 600, width: 200, height: 25 },
      { x: 40, y: 200, width: 150, height: 60 },
    ];
    const rescaled = rescaleBoxes(detected, 3.2, 2, { width: 1000, height: 1000 });

    expect(rescaled[0]).toEqual({ x: 25, y: 375, width: 125, height: 16 });
    expect(wideLineBoxes(detected, rescaled)).toEqual([rescaled[0]]);
    expect(wideLineBoxes(detected, rescaled)[0]).toBe(rescaled[0]);
  });
});

describe('pageTilt', () => {
  it('is the median tilt of the widest lines, not of every line', () => {
    const boxes = [
      { width: 1000, tilt: 4.2 },
      { width: 980, tilt: 3.8 },
      { width: 990, tilt: 4.0 },
      // Headings at another angle (a page photographed open), narrower than the zone's lines.
      { width: 700, tilt: -6 },
      { width: 650, tilt: -6 },
      { width: 600, tilt: -6 },
      { width: 120, tilt: 30 },
    ];

    expect(pageTilt(boxes)).toBeCloseTo(4.0);
  });

  it('is 0 when no line has a measured tilt', () => {
    expect(pageTilt([{ width: 900 }, { width: 400 }])).toBe(0);
    expect(pageTilt([])).toBe(0);
  });

  it('averages the middle two of an even count', () => {
    expect(
      pageTilt([
        { width: 1000, tilt: 1 },
        { width: 1000, tilt: 3 },
      ]),
    ).toBe(2);
  });
});
