import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import bwipjs from 'bwip-js/node';
import { describe, expect, it } from 'vitest';

import { runCli } from './cli';
import { renderPdf417 } from './testing/barcode-fixture';
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

  it('prints a binary PDF417 payload as its bytes read as ISO-8859-1, not escaped', async () => {
    // Control characters (NUL, tab, SUB, NAK, DEL) and bytes >= 0x80, as in zxing's binary samples.
    const payload = Uint8Array.from([
      0x21, 0x82, 0x9f, 0x09, 0x00, 0x1a, 0x45, 0xf4, 0x15, 0x7f, 0xa0, 0xff, 0xc9, 0x80, 0x41,
    ]);
    const dir = mkdtempSync(join(tmpdir(), 'bgv-'));
    const file = join(dir, 'binary.png');
    writeFileSync(file, await renderPdf417(payload));
    const { io, out } = capture();

    const code = await runCli(['barcode', file], io);

    expect(code).toBe(0);
    const [result] = (
      JSON.parse(out[0]!) as { results: Array<{ text: string; bytesBase64: string }> }
    ).results;
    expect(result?.bytesBase64).toBe(Buffer.from(payload).toString('base64'));
    expect(result?.text).toBe('!\x82\x9f\t\0\x1aE\xf4\x15\x7f\xa0\xff\xc9\x80A');
  });

  it("keeps a QR code's own character set: UTF-8 text is not read as ISO-8859-1", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bgv-'));
    const file = join(dir, 'qr.png');
    // No ECI: the bytes are UTF-8, which a QR reader detects (zxing does the same).
    writeFileSync(
      file,
      await bwipjs.toBuffer({
        bcid: 'qrcode',
        text: Buffer.from('Café Ω', 'utf8').toString('latin1'),
        binarytext: true,
        scale: 6,
        paddingwidth: 8,
        paddingheight: 8,
        backgroundcolor: 'FFFFFF',
      }),
    );
    const { io, out } = capture();

    await runCli(['barcode', file], io);

    const [result] = (JSON.parse(out[0]!) as { results: Array<{ format: string; text: string }> })
      .results;
    expect(result?.format).toBe('QRCode');
    expect(result?.text).toBe('Café Ω');
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
