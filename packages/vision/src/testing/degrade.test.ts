import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { DEGRADATIONS, degradeFiles } from './degrade';

/** A 400x200 checkerboard of 20 px squares, mid-grey and light grey: contrast and edges to lose. */
async function checkerboard(format: 'png' | 'jpeg') {
  const width = 400;
  const height = 200;
  const data = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const v = (Math.floor(x / 20) + Math.floor(y / 20)) % 2 ? 200 : 60;
      data.fill(v, (y * width + x) * 3, (y * width + x) * 3 + 3);
    }
  const image = sharp(data, { raw: { width, height, channels: 3 } });
  return (format === 'png' ? image.png() : image.jpeg({ quality: 95 })).toBuffer();
}

const byName = (name: string) => DEGRADATIONS.find((d) => d.name === name)!;

describe('degradeFiles', () => {
  let dir: string;
  let out: string;
  let png: string;
  let jpg: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'degrade-test-'));
    out = mkdtempSync(join(tmpdir(), 'degrade-out-'));
    png = join(dir, 'board.png');
    jpg = join(dir, 'photo.jpeg');
    writeFileSync(png, await checkerboard('png'));
    writeFileSync(jpg, await checkerboard('jpeg'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
  });

  // Read from the bytes: libvips caches an input by its path, and every copy is `board.png`.
  const statsOf = async (file: string | undefined) => {
    const { channels } = await sharp(readFileSync(file!)).greyscale().stats();
    return { mean: channels[0]!.mean, stdev: channels[0]!.stdev };
  };

  it('writes one copy per file, in order, under the same base name; PNG stays PNG', async () => {
    const files = await degradeFiles([png, jpg], out, byName('dark'));
    expect(files).toEqual([join(out, 'board.png'), join(out, 'photo.jpg')]);
    expect((await sharp(readFileSync(files[0]!)).metadata()).format).toBe('png');
    expect((await sharp(readFileSync(files[1]!)).metadata()).format).toBe('jpeg');
  });

  it('compresses to JPEG whatever the source format', async () => {
    const [file] = await degradeFiles([png], out, byName('jpeg'));
    expect((await sharp(readFileSync(file!)).metadata()).format).toBe('jpeg');
  });

  it('makes the picture smaller, darker, washed out, blurred or tilted', async () => {
    const before = await statsOf(png);
    const [small] = await degradeFiles([png], out, byName('small'));
    expect(await sharp(readFileSync(small!)).metadata()).toMatchObject({ width: 240, height: 120 });
    const [dark] = await degradeFiles([png], out, byName('dark'));
    expect((await statsOf(dark)).mean).toBeLessThan(before.mean * 0.5);
    const [glare] = await degradeFiles([png], out, byName('glare'));
    const washed = await statsOf(glare);
    expect(washed.mean).toBeGreaterThan(before.mean);
    expect(washed.stdev).toBeLessThan(before.stdev * 0.55);
    const [blur] = await degradeFiles([png], out, byName('blur'));
    expect((await statsOf(blur)).stdev).toBeLessThan(before.stdev * 0.98);
    const [tilt] = await degradeFiles([png], out, byName('tilt'));
    const tilted = await sharp(readFileSync(tilt!)).metadata();
    expect(tilted.width).toBeGreaterThan(400);
    expect(tilted.height).toBeGreaterThan(200);
  });

  it('smears rows only when moving, adds the same noise every run, and slopes rows when seen from the side', async () => {
    // Motion blur along the rows: vertical edges spread over a few pixels, horizontal ones stay
    // sharp; measured as the energy (squared) of the 1-px differences across and down.
    const [moving] = await degradeFiles([png], out, byName('motion'));
    const raw = async (file: string) =>
      sharp(readFileSync(file)).greyscale().raw().toBuffer({ resolveWithObject: true });
    const edges = async (file: string) => {
      const { data, info } = await raw(file);
      let across = 0;
      let down = 0;
      for (let y = 0; y < info.height - 1; y++)
        for (let x = 0; x < info.width - 1; x++) {
          const v = data[y * info.width + x]!;
          across += (v - data[y * info.width + x + 1]!) ** 2;
          down += (v - data[(y + 1) * info.width + x]!) ** 2;
        }
      return { across, down };
    };
    const sharpEdges = await edges(png);
    const movedEdges = await edges(moving!);
    expect(movedEdges.across).toBeLessThan(sharpEdges.across * 0.5);
    expect(movedEdges.down).toBeGreaterThan(sharpEdges.down * 0.9);

    const [noisy] = await degradeFiles([png], out, byName('noise'));
    const first = (await raw(noisy!)).data;
    const clean = (await raw(png)).data;
    let diff = 0;
    for (let i = 0; i < clean.length; i++) diff += Math.abs(first[i]! - clean[i]!);
    // Sigma 12 on each channel: about 8 grey levels off on average (a mean absolute deviation).
    expect(diff / clean.length).toBeGreaterThan(5);
    const [again] = await degradeFiles([png], out, byName('noise'));
    expect(Buffer.compare(first, (await raw(again!)).data)).toBe(0);

    const [sheared] = await degradeFiles([png], out, byName('shear'));
    const side = await sharp(readFileSync(sheared!)).metadata();
    expect(side.width).toBe(400);
    // Rows slope by 15 %: 400 px wide, the picture is 60 px taller.
    expect(side.height).toBeGreaterThanOrEqual(259);
  });
});
