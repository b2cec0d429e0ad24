import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { runCli } from './cli';
import { aSadlRecordFields, buildSadlRecord } from './testing/sadl-fixture';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) }, out, err };
}

describe('runCli', () => {
  it('parses a decrypted licence record with `sadl`', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bgv-'));
    const file = join(dir, 'record.bin');
    writeFileSync(file, buildSadlRecord(aSadlRecordFields()));
    const { io, out } = capture();

    const code = await runCli(['sadl', file], io);

    expect(code).toBe(0);
    expect(JSON.parse(out[0]!)).toMatchObject({
      file,
      ok: true,
      fields: { surname: 'TESTER', validTo: '2026-05-03' },
    });
  });

  it('prints ok: false for a bad payload and still exits 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bgv-'));
    const file = join(dir, 'short.bin');
    writeFileSync(file, Buffer.alloc(10));
    const { io, out } = capture();

    expect(await runCli(['sadl', file], io)).toBe(0);
    expect(JSON.parse(out[0]!)).toMatchObject({ ok: false });
  });

  it('exits 2 on usage errors', async () => {
    expect(await runCli([], capture().io)).toBe(2);
    expect(await runCli(['read', '--type', 'face', 'x.jpg'], capture().io)).toBe(2);
    expect(await runCli(['barcode'], capture().io)).toBe(2);
  });

  it('reports an unreadable image per input', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bgv-'));
    const file = join(dir, 'not-an-image.jpg');
    writeFileSync(file, 'hello');
    const { io, out } = capture();

    await runCli(['read', '--type', 'plate', file], io);

    expect(JSON.parse(out[0]!)).toMatchObject({
      file,
      ok: false,
      error: expect.stringContaining('unsupported_image'),
    });
  });
});
