import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { findUnsealedObjects, holdsPlaintextNumber, unsealedMagic } from './plaintext-scan';

describe('holdsPlaintextNumber (issue 26)', () => {
  it('finds a checksum-valid 13-digit run, an MRZ line 2 or a canary, and nothing else', () => {
    expect(holdsPlaintextNumber('{"idNumber":"8001015009087"}')).toBe(true);
    // The checksum fails, or the run is longer: not an ID number.
    expect(holdsPlaintextNumber('{"idNumber":"8001015009088"}')).toBe(false);
    expect(holdsPlaintextNumber('ticket 80010150090871')).toBe(false);
    expect(holdsPlaintextNumber('A123456784ZAF8001015M3001012<<<<<<<<<<<<<<02')).toBe(true);
    expect(holdsPlaintextNumber('Driver ID number *********9087 is on the watchlist')).toBe(false);
    expect(holdsPlaintextNumber('passport A98765432', ['A98765432'])).toBe(true);
    expect(holdsPlaintextNumber('sv1.1.aaaa.bbbb.cccc', ['A98765432'])).toBe(false);
  });

  it('skips a run that is part of a hex id or digest, and only that', () => {
    // A callback's message id and a keyed hash: the checksum-valid run is chance.
    expect(holdsPlaintextNumber('msg_8001015009087aa0f3c2e19b7d4c6e5f')).toBe(false);
    expect(holdsPlaintextNumber(`${'ab'.repeat(20)}8001015009087${'cd'.repeat(6)}`)).toBe(false);
    // Letters around a number do not hide it when they do not make a long hex token.
    expect(holdsPlaintextNumber('ID8001015009087')).toBe(true);
    expect(holdsPlaintextNumber('cafe8001015009087beef')).toBe(true);
    expect(holdsPlaintextNumber('msg_0f3c 8001015009087 aa0f3c2e19b7d4c6e5f0000000000')).toBe(true);
  });
});

describe('unsealedMagic and findUnsealedObjects (issue 26)', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('names the objects of a folder stored as uploaded, and no sealed one', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'bg-scan-'));
    const sealed = Buffer.concat([Buffer.from('BGS1', 'latin1'), Buffer.alloc(40, 7)]);
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16]);
    const mp4 = Buffer.concat([Buffer.from([0, 0, 0, 32]), Buffer.from('ftypisom', 'latin1')]);
    await mkdir(path.join(dir, 'tenant', 'captures'), { recursive: true });
    await writeFile(path.join(dir, 'tenant', 'captures', 'a.jpg'), sealed);
    await writeFile(path.join(dir, 'tenant', 'captures', 'b.jpg'), jpeg);
    await writeFile(path.join(dir, 'tenant', 'video.mp4'), mp4);
    expect(unsealedMagic(sealed)).toBeNull();
    expect(unsealedMagic(Buffer.from('%PDF-1.7'))).toBe('pdf');
    expect(await findUnsealedObjects(dir)).toEqual({
      objects: 3,
      unsealed: ['tenant/captures/b.jpg (jpeg)', 'tenant/video.mp4 (mp4)'],
    });
    expect(await findUnsealedObjects(path.join(dir, 'missing'))).toEqual({
      objects: 0,
      unsealed: [],
    });
  });
});
