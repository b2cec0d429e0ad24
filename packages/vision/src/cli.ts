/**
 * `boomgate-vision`: the evaluation interface (shared/data/README.md). One JSON object per input on
 * stdout, in input order; exit 0 even when inputs fail; usage errors exit 2. Never reads ground truth.
 */
import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';

import { assembleSequences } from './barcode/read-barcodes';
import { readSadl } from './documents/sadl';
import { VisionInputError } from './errors';
import { closeTesseract } from './ocr/tesseract';
import { assertDocumentType, readBarcodesFromBytes, readDocument } from './readers/read-document';
import type { ReaderContext } from './readers/reader-context';
import { type Barcode, DOCUMENT_TYPES } from './types';

export const USAGE = `Usage:
  boomgate-vision read --type <${DOCUMENT_TYPES.join('|')}> <image>...
  boomgate-vision barcode <image>...
  boomgate-vision sadl <payload.bin>...      (720-byte encrypted or 684-byte decrypted licence record)
  boomgate-vision face-compare --pairs <pairs.json> | face-compare <a> <b>`;

type Io = { out: (line: string) => void; err: (line: string) => void };
const defaultIo: Io = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

const ms = (started: number) => Math.round(performance.now() - started);
const errorMessage = (error: unknown) =>
  error instanceof VisionInputError
    ? `${error.kind}: ${error.message}`
    : error instanceof Error
      ? error.message
      : String(error);

/**
 * For PDF417 the CLI's `text` is the payload bytes read as ISO-8859-1, as zxing's Java reader does
 * (PDF417's default character set) and as the evaluation interface expects; zxing-cpp's own text
 * escapes binary bytes (`<U+82>`, `<HT>`). Other formats keep zxing-cpp's text, which decodes their
 * character sets (a QR code's UTF-8, say). Readers inside the package use `Barcode.text` unchanged.
 */
function barcodeJson(b: Barcode) {
  return {
    format: b.format,
    text: b.format === 'PDF417' ? Buffer.from(b.bytes).toString('latin1') : b.text,
    bytesBase64: Buffer.from(b.bytes).toString('base64'),
    ...(b.sequence ? { sequence: b.sequence } : {}),
    ...(b.isAssembled ? { isAssembled: true } : {}),
  };
}

async function runRead(args: string[], io: Io, ctx: ReaderContext): Promise<number> {
  const i = args.indexOf('--type');
  const type = i >= 0 ? args[i + 1] : undefined;
  const files = args.filter((_, k) => i < 0 || (k !== i && k !== i + 1));
  try {
    assertDocumentType(type);
  } catch {
    io.err(`--type must be one of ${DOCUMENT_TYPES.join(', ')}\n${USAGE}`);
    return 2;
  }
  if (!files.length) {
    io.err(USAGE);
    return 2;
  }
  for (const file of files) {
    const started = performance.now();
    try {
      const result = await readDocument(type, await readFile(file), ctx);
      if (result.ok) {
        // Every reading says which fields it could not confirm (an empty list: all confirmed).
        io.out(
          JSON.stringify({ file, ...result, uncertain: result.uncertain ?? [], ms: ms(started) }),
        );
      } else {
        io.out(
          JSON.stringify({
            file,
            type,
            ok: false,
            error: result.error,
            text: result.text,
            ms: ms(started),
          }),
        );
      }
    } catch (error) {
      io.out(
        JSON.stringify({ file, type, ok: false, error: errorMessage(error), ms: ms(started) }),
      );
    }
  }
  return 0;
}

async function runBarcode(files: string[], io: Io): Promise<number> {
  if (!files.length) {
    io.err(USAGE);
    return 2;
  }
  const outputs: Array<{
    file: string;
    ok: boolean;
    barcodes: Barcode[];
    error?: string;
    ms: number;
  }> = [];
  for (const file of files) {
    const started = performance.now();
    try {
      const barcodes = await readBarcodesFromBytes(await readFile(file));
      outputs.push({ file, ok: barcodes.length > 0, barcodes, ms: ms(started) });
    } catch (error) {
      outputs.push({ file, ok: false, barcodes: [], error: errorMessage(error), ms: ms(started) });
    }
  }
  // A Macro PDF417 message may span several images: assemble it across the inputs of this call.
  const assembled = assembleSequences(outputs.flatMap((o) => o.barcodes));
  for (const o of outputs) {
    const whole = assembled.filter((a) =>
      o.barcodes.some((b) => b.sequence && b.sequence.id === a.sequence?.id && !b.isAssembled),
    );
    const own = o.barcodes.filter((b) => !whole.some((w) => w.text === b.text && b.isAssembled));
    io.out(
      JSON.stringify({
        file: o.file,
        ok: o.ok,
        results: [...whole, ...own].map(barcodeJson),
        ...(o.error ? { error: o.error } : {}),
        ms: o.ms,
      }),
    );
  }
  return 0;
}

async function runSadl(files: string[], io: Io): Promise<number> {
  if (!files.length) {
    io.err(USAGE);
    return 2;
  }
  for (const file of files) {
    const started = performance.now();
    try {
      const record = readSadl(new Uint8Array(await readFile(file)));
      io.out(JSON.stringify({ file, ok: true, fields: record, ms: ms(started) }));
    } catch (error) {
      io.out(JSON.stringify({ file, ok: false, error: errorMessage(error), ms: ms(started) }));
    }
  }
  return 0;
}

async function runFaceCompareCommand(args: string[], io: Io): Promise<number> {
  let faces: { runFaceCompare?: (args: string[]) => Promise<number> };
  try {
    faces = await import('./faces/cli');
  } catch (error) {
    io.err(`face-compare is not available: ${errorMessage(error)}`);
    return 2;
  }
  if (typeof faces.runFaceCompare !== 'function') {
    io.err('face-compare is not available in this build.');
    return 2;
  }
  return faces.runFaceCompare(args);
}

export async function runCli(argv: string[], io: Io = defaultIo): Promise<number> {
  const [command, ...args] = argv;
  const ctx: ReaderContext = { intraOpThreads: availableParallelism() };
  try {
    switch (command) {
      case 'read':
        return await runRead(args, io, ctx);
      case 'barcode':
        return await runBarcode(args, io);
      case 'sadl':
        return await runSadl(args, io);
      case 'face-compare':
        return await runFaceCompareCommand(args, io);
      case undefined:
      default:
        io.err(USAGE);
        return 2;
    }
  } finally {
    await closeTesseract();
  }
}
