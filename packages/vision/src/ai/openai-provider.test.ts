import { readingFieldKinds } from '@boomgate/contracts/readings';
import { afterEach, describe, expect, it } from 'vitest';

import { type FakeAiServer, startFakeAiServer } from '../testing/fake-ai-server';

import { AI_FIELDS, aiResponseSchema } from './field-schemas';
import { createAiReader, shouldAskAi } from './openai-provider';

const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
const TICKET = {
  ticketNumber: 'WB-004821',
  site: 'Thabazimbi',
  vehicleReg: 'BCD123MP',
  trailerRegs: ['BCD124MP'],
  product: 'Iron ore',
  customer: null,
  transporter: 'Acme Haulage',
  supplier: null,
  tareWeight: 15_200,
  grossWeight: 49_700,
  netWeight: 34_500,
  tareDateTime: '2026-03-02T07:14',
  grossDateTime: '2026-03-02T08:02:11',
  sealNumbers: [],
  tareOperator: null,
  grossOperator: 'T. Mokoena',
};
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

  it("asks for the type's JSON schema as a strict response_format", async () => {
    server = await startFakeAiServer(() => ({ content: JSON.stringify(TICKET) }));
    const read = createAiReader({ baseUrl: server.baseUrl, apiKey: 'k', model: 'm' });

    await read('weighbridge', JPEG);

    expect(server.requests[0]!.body).toMatchObject({
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: 'boomgate_weighbridge',
          strict: true,
          schema: {
            type: 'object',
            required: Object.keys(AI_FIELDS.weighbridge),
            additionalProperties: false,
            properties: {
              ticketNumber: { type: ['string', 'null'] },
              tareWeight: { type: ['number', 'null'] },
              sealNumbers: { type: 'array', items: { type: 'string' } },
            },
          },
        },
      },
    });
  });

  it('uses a schema-valid answer with the fields the local reader derives', async () => {
    server = await startFakeAiServer(() => ({ content: JSON.stringify(TICKET) }));
    const read = createAiReader({ baseUrl: server.baseUrl, apiKey: 'k', model: 'm' });

    const result = await read('weighbridge', JPEG);

    expect(result).toMatchObject({
      ok: true,
      source: 'ai',
      fields: { ticketNumber: 'WB-004821', netWeight: 34_500, massCheck: 'ok', isPartial: false },
    });
  });

  it.each([
    ['a field of the wrong type', { ...TICKET, tareWeight: '15 200 kg' }],
    ['a missing field', (({ site: _site, ...rest }) => rest)(TICKET)],
    ['a field the schema does not have', { ...TICKET, driver: 'J. Smith' }],
    ['a date-time in another format', { ...TICKET, tareDateTime: '02/03/2026 07:14' }],
    ['a list holding a number', { ...TICKET, trailerRegs: [42] }],
    ['a JSON array instead of an object', [TICKET]],
  ])('refuses an answer with %s as a failed read', async (_, answer) => {
    server = await startFakeAiServer(() => ({ content: JSON.stringify(answer) }));
    const read = createAiReader({ baseUrl: server.baseUrl, apiKey: 'k', model: 'm' });

    expect(await read('weighbridge', JPEG)).toBeNull();
  });

  it('returns null for a refusal or an answer with every field empty', async () => {
    server = await startFakeAiServer(() => ({
      content: null,
      refusal: 'I cannot help with that.',
    }));
    const read = createAiReader({ baseUrl: server.baseUrl, apiKey: 'k', model: 'm' });
    const empty = await startFakeAiServer(() => ({ content: '{"plateNumber": null}' }));
    const readEmpty = createAiReader({ baseUrl: empty.baseUrl, apiKey: 'k', model: 'm' });

    const refused = await read('plate', JPEG);
    const nothing = await readEmpty('plate', JPEG);
    await empty.close();

    expect(refused).toBeNull();
    expect(nothing).toBeNull();
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

describe('aiResponseSchema', () => {
  it.each(Object.keys(AI_FIELDS) as Array<keyof typeof AI_FIELDS>)(
    'lists every %s field as required and allows no others (strict structured outputs)',
    (type) => {
      const schema = aiResponseSchema(type);

      expect(schema.required).toEqual(Object.keys(schema.properties));
      expect(schema.required.length).toBeGreaterThan(0);
      expect(schema.additionalProperties).toBe(false);
    },
  );
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

  it('in primary mode asks over confident OCR, but never over a barcode or a check-valid MRZ', () => {
    const mrz = { ...base, type: 'passport', source: 'mrz', confidence: 0.98 } as const;

    expect(shouldAskAi({ ...base, source: 'ocr', confidence: 0.95 }, 0.6, 'primary')).toBe(true);
    expect(shouldAskAi({ ...base, source: 'ocr', confidence: 0.95 }, 0.6, 'fallback')).toBe(false);
    expect(shouldAskAi({ ...base, source: 'barcode', confidence: 0.1 }, 0.6, 'primary')).toBe(
      false,
    );
    expect(shouldAskAi({ ...mrz, fields: { checksValid: true } }, 0.6, 'primary')).toBe(false);
    expect(shouldAskAi({ ...mrz, fields: { checksValid: false } }, 0.6, 'primary')).toBe(true);
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

describe('AI_FIELDS come from the contracts readings (issue 14)', () => {
  it.each(Object.keys(AI_FIELDS) as Array<keyof typeof AI_FIELDS>)(
    '%s: every field is a field of the typed reading, of the same kind',
    (type) => {
      const kinds = readingFieldKinds(type);
      for (const [name, schema] of Object.entries(AI_FIELDS[type])) {
        const expected =
          schema.type === 'array' ? 'texts' : schema.type[0] === 'number' ? 'number' : 'text';
        expect(kinds[name], `${type}.${name}`).toBe(expected);
      }
    },
  );
});
