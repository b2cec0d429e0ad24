import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type VisionEngine, createVisionEngine } from './engine';
import { VisionInputError } from './errors';
import { renderBarcodeCardPhoto } from './testing/document-fixture';
import { type FakeAiServer, startFakeAiServer } from './testing/fake-ai-server';
import { aPixelBombPng } from './testing/bad-images';
import { SA_PLATES, renderPlatePhoto } from './testing/plate-fixture';

const DISC =
  '%MVL1CC16%0137%4025C016%1%40250134XHVC%JP33WFGP%CCK307X%Pick-up / Bakkie%ISUZU%D-MAX%White / Wit%ACVMRRAR6K4055410%4JA14H8257%2021-07-31%';

let engine: VisionEngine;
let ai: FakeAiServer;

beforeAll(async () => {
  ai = await startFakeAiServer(() => ({ content: '{"plateNumber":"CA 999-111"}' }));
  engine = createVisionEngine({ threads: 1, ai: { baseUrl: ai.baseUrl, apiKey: 'k', model: 'm' } });
  await engine.warmUp();
}, 60_000);

afterAll(async () => {
  await engine.close();
  await ai.close();
});

describe('createVisionEngine', () => {
  it('reads a plate in a worker thread', async () => {
    const { display, style, plate } = SA_PLATES[1]!;

    const result = await engine.read('plate', await renderPlatePhoto(display, style));

    expect(result).toMatchObject({ ok: true, source: 'ocr', fields: { plateNumber: plate } });
  });

  it('turns bad input into VisionInputError and keeps the worker alive', async () => {
    await expect(engine.read('plate', new Uint8Array())).rejects.toMatchObject({ kind: 'empty' });
    await expect(engine.read('plate', aPixelBombPng())).rejects.toBeInstanceOf(VisionInputError);
    await expect(
      engine.read('plate', new Uint8Array([0xff, 0xd8, 0xff, 0, 0])),
    ).rejects.toMatchObject({ kind: 'unsupported_image' });

    const barcodes = await engine.readBarcodes(await renderBarcodeCardPhoto(DISC));

    expect(barcodes[0]?.text).toBe(DISC);
  });

  it('rejects an unknown type before queueing', async () => {
    await expect(engine.read('face' as 'plate', new Uint8Array([1]))).rejects.toMatchObject({
      kind: 'unknown_type',
    });
  });

  it('keeps the barcode reading and does not ask the AI provider', async () => {
    const before = ai.requests.length;

    const result = await engine.read('disk', await renderBarcodeCardPhoto(DISC));

    expect(result).toMatchObject({ source: 'barcode', fields: { licenceNumber: 'JP33WFGP' } });
    expect(ai.requests.length).toBe(before);
  });

  it('falls back to the AI provider when nothing is read locally', async () => {
    const photo = await renderPlatePhoto('', { background: '#3b4a5a', text: '#3b4a5a' });

    const result = await engine.read('plate', photo);

    expect(result).toMatchObject({ ok: true, source: 'ai', fields: { plateNumber: 'CA999111' } });
  });
});

describe('createVisionEngine with the AI provider as primary', () => {
  let primary: VisionEngine;
  let primaryAi: FakeAiServer;
  let answer = '';

  beforeAll(async () => {
    primaryAi = await startFakeAiServer(() => ({ content: answer }));
    primary = createVisionEngine({
      threads: 1,
      ai: { baseUrl: primaryAi.baseUrl, apiKey: 'k', model: 'm', mode: 'primary' },
    });
  });

  afterAll(async () => {
    await primary.close();
    await primaryAi.close();
  });

  it('asks the AI first for a plate the local reader can read, with the plate schema', async () => {
    const { display, style } = SA_PLATES[1]!;
    answer = '{"plateNumber":"CA 999-111"}';
    const before = primaryAi.requests.length;

    const result = await primary.read('plate', await renderPlatePhoto(display, style));

    expect(result).toMatchObject({ ok: true, source: 'ai', fields: { plateNumber: 'CA999111' } });
    expect(primaryAi.requests[before]?.body).toMatchObject({
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: 'boomgate_plate',
          strict: true,
          schema: { type: 'object', required: ['plateNumber'], additionalProperties: false },
        },
      },
    });
  });

  it('keeps a barcode reading and does not ask the AI', async () => {
    answer = '{"licenceNumber":"ZZ99ZZGP"}';
    const before = primaryAi.requests.length;

    const result = await primary.read('disk', await renderBarcodeCardPhoto(DISC));

    expect(result).toMatchObject({ source: 'barcode', fields: { licenceNumber: 'JP33WFGP' } });
    expect(primaryAi.requests.length).toBe(before);
  });

  it('falls back to the local reading when the AI answer does not match the schema', async () => {
    const { display, style, plate } = SA_PLATES[1]!;
    answer = '{"plate":"CA 999-111","confidence":"high"}';
    const before = primaryAi.requests.length;

    const result = await primary.read('plate', await renderPlatePhoto(display, style));

    expect(primaryAi.requests.length).toBe(before + 1);
    expect(result).toMatchObject({ ok: true, source: 'ocr', fields: { plateNumber: plate } });
  });

  it('rejects bad input before asking the AI', async () => {
    answer = '{"plateNumber":"CA 999-111"}';
    const before = primaryAi.requests.length;

    const read = primary.read('plate', new Uint8Array([0xff, 0xd8, 0xff, 0, 0]));

    await expect(read).rejects.toMatchObject({ kind: 'unsupported_image' });
    expect(primaryAi.requests.length).toBe(before);
  });
});
