import { afterEach, describe, expect, it } from 'vitest';

import { type FakeAiServer, startFakeAiServer } from '../testing/fake-ai-server';

import { createAiReader, shouldAskAi } from './openai-provider';

const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
let server: FakeAiServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('createAiReader', () => {
  it('sends the image and model to the chat-completions endpoint and reads JSON fields', async () => {
    server = await startFakeAiServer(() => ({ content: 'Here: {"plateNumber": "kp 35-xk gp"}' }));
    const read = createAiReader({
      baseUrl: server.baseUrl,
      apiKey: 'sk-test',
      model: 'vision-small',
    });

    const result = await read('plate', JPEG);

    expect(result).toMatchObject({ ok: true, source: 'ai', fields: { plateNumber: 'KP35XKGP' } });
    expect(server.requests[0]).toMatchObject({
      authorization: 'Bearer sk-test',
      body: { model: 'vision-small' },
    });
    expect(JSON.stringify(server.requests[0]!.body)).toContain('data:image/jpeg;base64,');
  });

  it('returns null when the provider fails', async () => {
    server = await startFakeAiServer(() => ({ status: 500, content: '' }));
    const read = createAiReader({ baseUrl: server.baseUrl, apiKey: 'k', model: 'm' });

    expect(await read('plate', JPEG)).toBeNull();
  });

  it('returns null when the answer holds no JSON', async () => {
    server = await startFakeAiServer(() => ({ content: 'I cannot read this.' }));
    const read = createAiReader({ baseUrl: server.baseUrl, apiKey: 'k', model: 'm' });

    expect(await read('weighbridge', JPEG)).toBeNull();
  });
});

describe('shouldAskAi', () => {
  const base = { ok: true, type: 'plate', fields: {}, text: '' } as const;

  it('never overrides a barcode or a check-valid MRZ', () => {
    expect(shouldAskAi({ ...base, source: 'barcode', confidence: 0.1 }, 0.6)).toBe(false);
    expect(
      shouldAskAi(
        {
          ...base,
          type: 'passport',
          source: 'mrz',
          confidence: 0.98,
          fields: { checksValid: true },
        },
        0.6,
      ),
    ).toBe(false);
  });

  it('asks for weak OCR, failed reads and failing MRZ checks', () => {
    expect(shouldAskAi({ ...base, source: 'ocr', confidence: 0.4 }, 0.6)).toBe(true);
    expect(
      shouldAskAi(
        { ok: false, type: 'plate', error: 'x', text: '', fields: {}, confidence: 0 },
        0.6,
      ),
    ).toBe(true);
    expect(
      shouldAskAi(
        {
          ...base,
          type: 'passport',
          source: 'mrz',
          confidence: 0.3,
          fields: { checksValid: false },
        },
        0.6,
      ),
    ).toBe(true);
  });
});
