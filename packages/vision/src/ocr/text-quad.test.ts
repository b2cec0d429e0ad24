import { describe, expect, it } from 'vitest';

import {
  type Quad,
  orderTextQuad,
  quadInCrop,
  quadTiltDegrees,
  rectifiableQuad,
  textHeight,
} from './text-quad';

/** Corners of a w x h text line centred at (cx, cy), rotated by `degrees` (image y down). */
function rotatedRect(cx: number, cy: number, w: number, h: number, degrees: number): Quad {
  const a = (degrees * Math.PI) / 180;
  const corner = (dx: number, dy: number) => ({
    x: cx + dx * Math.cos(a) - dy * Math.sin(a),
    y: cy + dx * Math.sin(a) + dy * Math.cos(a),
  });
  return [
    corner(-w / 2, -h / 2),
    corner(w / 2, -h / 2),
    corner(w / 2, h / 2),
    corner(-w / 2, h / 2),
  ];
}

/** Deterministic shuffles of the four corners: the detector's order is not the text's. */
const orders = [
  [0, 1, 2, 3],
  [2, 0, 3, 1],
  [3, 2, 1, 0],
  [1, 3, 0, 2],
];

describe('orderTextQuad', () => {
  it.each([-38, -25, -10, -3, 0, 3, 10, 25, 38])(
    'puts a line tilted %d° in reading order whatever order the corners come in',
    (degrees) => {
      const rect = rotatedRect(400, 300, 300, 60, degrees);
      for (const order of orders) {
        const quad = orderTextQuad(order.map((i) => rect[i]!));

        expect(quad).not.toBeNull();
        quad!.forEach((p, i) => {
          expect(p.x).toBeCloseTo(rect[i]!.x, 6);
          expect(p.y).toBeCloseTo(rect[i]!.y, 6);
        });
        expect(quadTiltDegrees(quad!)).toBeCloseTo(degrees, 6);
      }
    },
  );

  it('refuses degenerate input', () => {
    expect(orderTextQuad([{ x: 0, y: 0 }])).toBeNull();
    expect(
      orderTextQuad([
        { x: 1, y: 1 },
        { x: 1, y: 1 },
        { x: 1, y: 1 },
        { x: 1, y: 1 },
      ]),
    ).toBeNull();
    expect(
      orderTextQuad([
        { x: 0, y: 0 },
        { x: Number.NaN, y: 0 },
        { x: 1, y: 1 },
        { x: 0, y: 1 },
      ]),
    ).toBeNull();
  });
});

describe('rectifiableQuad', () => {
  it('levels lines tilted between 2° and 40° either way', () => {
    for (const degrees of [-35, -12, -2.5, 2.5, 12, 35]) {
      const quad = rectifiableQuad(rotatedRect(200, 100, 240, 50, degrees));

      expect(quad).toBeDefined();
      expect(quadTiltDegrees(quad!)).toBeCloseTo(degrees, 6);
    }
  });

  it('leaves level lines, steep squares and missing corners to the axis-aligned crop', () => {
    expect(rectifiableQuad(rotatedRect(200, 100, 240, 50, 0.5))).toBeUndefined();
    expect(rectifiableQuad(rotatedRect(200, 100, 240, 50, 60))).toBeUndefined();
    expect(rectifiableQuad(undefined)).toBeUndefined();
  });

  it('never turns a levelled quad on its side (taller than wide stays axis-aligned)', () => {
    // A narrow single group (`B`) tilted 10°: the runtime would rotate a tall quad by 90°.
    expect(rectifiableQuad(rotatedRect(200, 100, 30, 60, 10))).toBeUndefined();
  });
});

describe('quadInCrop and textHeight', () => {
  it('maps corners into an enlarged crop and measures the levelled text height', () => {
    const quad = rotatedRect(200, 100, 240, 50, 20);
    const inCrop = quadInCrop(quad, { x: 50, y: 20 }, 2);

    expect(inCrop[0].x).toBeCloseTo((quad[0].x - 50) * 2, 9);
    expect(inCrop[2].y).toBeCloseTo((quad[2].y - 20) * 2, 9);
    expect(textHeight({ height: 999, points: quad })).toBeCloseTo(50, 6);
    expect(textHeight({ height: 42 })).toBe(42);
  });
});
