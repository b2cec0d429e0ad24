import { describe, expect, it } from 'vitest';

import { aJpegDataUrl } from '@/testing/images';
import { anMp4, aWebm } from '@/testing/videos';

import { readVideoDuration, sniffVideoType } from './video-files';

describe('sniffVideoType', () => {
  it('knows mp4 and webm by their first bytes', () => {
    expect(sniffVideoType(anMp4(3))).toBe('video/mp4');
    expect(sniffVideoType(aWebm(3))).toBe('video/webm');
  });

  it('refuses anything else, including a Matroska file that is not webm', async () => {
    const jpeg = Buffer.from((await aJpegDataUrl()).split(',')[1] ?? '', 'base64');
    expect(sniffVideoType(jpeg)).toBeUndefined();
    expect(sniffVideoType(Buffer.from('<html><script>alert(1)</script>'))).toBeUndefined();
    const matroska = Buffer.from(aWebm(1).toString('latin1').replace('webm', 'mkv!'), 'latin1');
    expect(sniffVideoType(matroska)).toBeUndefined();
    expect(sniffVideoType(Buffer.alloc(0))).toBeUndefined();
  });
});

describe('readVideoDuration', () => {
  it('reads mp4 mvhd, versions 0 and 1, with moov after mdat', () => {
    expect(readVideoDuration(anMp4(12.5), 'video/mp4')).toBeCloseTo(12.5, 3);
    expect(readVideoDuration(anMp4(90, { version: 1, timescale: 600 }), 'video/mp4')).toBeCloseTo(
      90,
      3,
    );
  });

  it('reads the declared webm Duration, or walks the clusters when the recorder wrote none', () => {
    expect(readVideoDuration(aWebm(4, { declared: true }), 'video/webm')).toBeCloseTo(4, 3);
    // Blocks every 100 ms up to 2.5 s, in unknown-size clusters.
    expect(readVideoDuration(aWebm(2.5), 'video/webm')).toBeCloseTo(2.5, 2);
  });

  it('says nothing for a truncated or empty container instead of guessing', () => {
    const mp4 = anMp4(5);
    expect(readVideoDuration(mp4.subarray(0, mp4.length - 20), 'video/mp4')).toBeUndefined();
    expect(readVideoDuration(aWebm(0), 'video/webm')).toBeUndefined();
  });
});
