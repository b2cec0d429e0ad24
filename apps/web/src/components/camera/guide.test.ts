import { describe, expect, it } from 'vitest';

import { coverTransform, cropsToGuide, GUIDE_ASPECT, guideBox, guideRegionInFrame } from './guide';

describe('guideBox', () => {
  it('centres a wide plate guide', () => {
    const box = guideBox('wide', { width: 1000, height: 800 });
    expect(box).not.toBeNull();
    expect(box!.width).toBeCloseTo(900);
    expect(box!.height).toBeCloseTo(900 / 3.2);
    expect(box!.x).toBeCloseTo(50);
    expect(box!.y + box!.height / 2).toBeCloseTo(400);
  });

  it('keeps the ID card aspect 85.6 × 54', () => {
    const box = guideBox('card', { width: 390, height: 700 })!;
    expect(box.width / box.height).toBeCloseTo(85.6 / 54);
    expect(GUIDE_ASPECT.card).toBeCloseTo(1.585, 3);
  });

  it('fits the guide to a short preview by height', () => {
    const box = guideBox('card', { width: 2000, height: 400 })!;
    expect(box.height).toBeCloseTo(400 * 0.7);
  });

  it('has no box without a guide or a measured preview', () => {
    expect(guideBox('none', { width: 100, height: 100 })).toBeNull();
    expect(guideBox('card', { width: 0, height: 0 })).toBeNull();
  });
});

describe('coverTransform', () => {
  it('scales a landscape video to fill a portrait preview, cutting the sides', () => {
    const { scale, offsetX, offsetY } = coverTransform(
      { width: 390, height: 844 },
      { width: 1280, height: 720 },
    );
    expect(scale).toBeCloseTo(844 / 720);
    expect(offsetY).toBeCloseTo(0);
    expect(offsetX).toBeLessThan(0);
  });
});

describe('guideRegionInFrame', () => {
  it('maps the guide to video pixels with a margin when the preview matches the video', () => {
    const region = guideRegionInFrame(
      'card',
      { width: 1280, height: 720 },
      { width: 1280, height: 720 },
      0,
    )!;
    const box = guideBox('card', { width: 1280, height: 720 })!;
    expect(region.x).toBe(Math.floor(box.x));
    expect(region.width).toBeGreaterThanOrEqual(Math.floor(box.width));
    expect(region.width).toBeLessThanOrEqual(Math.ceil(box.width) + 1);
  });

  it('maps through a scaled, cropped preview', () => {
    // The 1920×1080 frame shown at half size in a 960×540 preview: video = 2 × preview.
    const region = guideRegionInFrame(
      'wide',
      { width: 960, height: 540 },
      { width: 1920, height: 1080 },
      0,
    )!;
    const box = guideBox('wide', { width: 960, height: 540 })!;
    expect(region.x).toBe(Math.floor(box.x * 2));
    expect(region.y).toBe(Math.floor(box.y * 2));
    expect(region.width).toBeCloseTo(box.width * 2, -1);
  });

  it('adds the margin and stays inside the frame', () => {
    const region = guideRegionInFrame(
      'wide',
      { width: 1280, height: 720 },
      { width: 1280, height: 720 },
      0.5,
    )!;
    expect(region.x).toBe(0);
    expect(region.width).toBe(1280);
    expect(region.y).toBeGreaterThan(0);
    expect(region.y + region.height).toBeLessThanOrEqual(720);
  });

  it('keeps the whole frame for a face (oval) or no guide', () => {
    expect(cropsToGuide('oval')).toBe(false);
    expect(
      guideRegionInFrame('oval', { width: 100, height: 100 }, { width: 100, height: 100 }),
    ).toBeNull();
    expect(
      guideRegionInFrame('none', { width: 100, height: 100 }, { width: 100, height: 100 }),
    ).toBeNull();
  });
});
