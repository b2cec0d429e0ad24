/**
 * fast-check arbitraries for the API fuzz test (SEC-67): values shaped by a route's zod schema
 * (through its JSON Schema, `z.toJSONSchema`), and hostile values that no schema allows.
 */
import { crc32, deflateSync } from 'node:zlib';

import fc from 'fast-check';

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  maxItems?: number;
  minItems?: number;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
};

// Generated strings stay short; the oversize cases are sent separately.
const MAX_GENERATED_LENGTH = 64;

/** Ids that exist somewhere (another tenant's rows): generated uuids are drawn from them too. */
export type Known = { ids: readonly string[] };

function stringArbitrary(schema: JsonSchema, known: Known): fc.Arbitrary<string> {
  if (schema.format === 'uuid') {
    return known.ids.length > 0
      ? fc.oneof(fc.uuid({ version: 4 }), fc.constantFrom(...known.ids))
      : fc.uuid({ version: 4 });
  }
  if (schema.format === 'email') return fc.emailAddress();
  if (schema.format === 'date')
    return fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
  if (schema.format === 'date-time')
    return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
  if (schema.pattern) {
    try {
      const pattern = new RegExp(schema.pattern);
      return fc
        .stringMatching(pattern)
        .filter(
          (s) => s.length >= (schema.minLength ?? 0) && s.length <= (schema.maxLength ?? Infinity),
        );
    } catch {
      // A pattern JavaScript cannot compile: fall through to plain strings.
    }
  }
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.max(
    minLength,
    Math.min(schema.maxLength ?? MAX_GENERATED_LENGTH, MAX_GENERATED_LENGTH),
  );
  return fc.string({ minLength, maxLength, unit: 'grapheme' });
}

function numberArbitrary(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const min = schema.minimum ?? schema.exclusiveMinimum ?? -1_000_000;
  const max = schema.maximum ?? schema.exclusiveMaximum ?? 1_000_000;
  return integer
    ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) })
    : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
}

/** Values that satisfy (or nearly satisfy) a JSON Schema made by `z.toJSONSchema`. */
export function fromJsonSchema(
  schema: JsonSchema,
  known: Known = { ids: [] },
  depth = 0,
): fc.Arbitrary<unknown> {
  if (depth > 6) return fc.constant(null);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const union = schema.anyOf ?? schema.oneOf;
  if (union) return fc.oneof(...union.map((s) => fromJsonSchema(s, known, depth + 1)));
  if (schema.allOf?.[0]) return fromJsonSchema(schema.allOf[0], known, depth + 1);
  const type: string = (Array.isArray(schema.type) ? schema.type[0] : schema.type) ?? 'any';
  switch (type) {
    case 'string':
      return stringArbitrary(schema, known);
    case 'integer':
      return numberArbitrary(schema, true);
    case 'number':
      return numberArbitrary(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(
        schema.items ? fromJsonSchema(schema.items, known, depth + 1) : fc.anything(),
        {
          minLength: schema.minItems ?? 0,
          maxLength: Math.min(schema.maxItems ?? 4, 4),
        },
      );
    case 'object': {
      const properties = schema.properties ?? {};
      const required = new Set(schema.required ?? []);
      const record = Object.fromEntries(
        Object.entries(properties).map(([key, value]) => [
          key,
          fromJsonSchema(value, known, depth + 1),
        ]),
      );
      return fc.record(record, {
        requiredKeys: Object.keys(properties).filter((key) => required.has(key)),
      });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** A PNG that declares `size`×`size` pixels in a few hundred bytes. */
export function pixelBombPng(size = 30_000): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.alloc(1024))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const b64 = (mime: string, bytes: Buffer) => `data:${mime};base64,${bytes.toString('base64')}`;

const nested = (depth: number): unknown => {
  let value: unknown = 'deep';
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
};

/** Strings an attacker or a broken client would send. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '\u0000\u0001\u001f',
    '\ud800',
    '\udfff\ud800',
    '\u202eevil\u202c',
    'Ω≈ç√∫˜µ≤≥÷',
    '👩🏽‍🚒🇿🇦',
    'Z̷̢̛a̶l̵g̸o̷',
    '../../../../etc/passwd',
    '..%2f..%2fetc%2fpasswd',
    '%00',
    '%',
    '<script>alert(1)</script>',
    '"><img src=x onerror=alert(1)>',
    "' or '1'='1' --",
    "'; drop table users; --",
    '${7*7}{{7*7}}',
    '__proto__',
    'constructor',
    'NaN',
    '-0',
    '1e309',
    '99999999999999999999999',
    '2026-02-30',
    '00000000-0000-0000-0000-000000000000',
    'ffffffff-ffff-ffff-ffff-fffffffffffg',
    'A'.repeat(5_000),
    'data:image/jpeg;base64,',
    'data:image/jpeg;base64,/9j/4AAQSkZJRgABAQ',
    b64('image/jpeg', Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 7)])),
    b64('image/png', pixelBombPng()),
    b64(
      'image/svg+xml',
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'),
    ),
    b64('image/gif', Buffer.from('GIF89a\u0001\u0000\u0001\u0000')),
    'data:text/html;base64,PGh0bWw+',
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
);

/** Any JSON value of the wrong kind: numbers at the edges, nesting, huge arrays, hostile strings. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  fc.constantFrom(
    null,
    true,
    false,
    0,
    -1,
    1.5,
    Number.MAX_SAFE_INTEGER,
    -Number.MAX_VALUE,
    1e308,
    [],
    {},
    [null],
    nested(200),
    Array.from({ length: 2_000 }, (_, i) => i),
  ),
  fc.jsonValue({ maxDepth: 3 }),
);

/** Raw request bodies that are not valid JSON, or JSON built to hurt the parser. */
export const hostileRawBody: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '{',
    '{"a":',
    '[1,2',
    'null',
    '"just a string"',
    '12',
    '{"__proto__":{"polluted":true}}',
    '{"constructor":{"prototype":{"polluted":true}}}',
    '{"a":1,"a":2}',
    '\ufeff{}',
    '{"a":"\\ud800"}',
    `${'['.repeat(5_000)}${']'.repeat(5_000)}`,
    `{"a":${'{"a":'.repeat(2_000)}1${'}'.repeat(2_000)}}`,
  ),
  fc.string({ unit: 'binary', maxLength: 60 }),
);

/** Content types other than JSON that a JSON route must refuse without a 5xx. */
export const otherContentType = fc.constantFrom(
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'image/jpeg',
  'application/json; charset=utf-16',
  'application/octet-stream',
);

export type JsonSchemaOf = JsonSchema;
