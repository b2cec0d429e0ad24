import { isResponseSerializationError } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import {
  PresentedResponseMismatch,
  presentedResponse,
  responseSerializerCompiler,
} from './response-serializer';

const Row = z.object({ id: z.string(), name: z.string().nullable(), tags: z.array(z.string()) });
const route = (schema: z.ZodType) => ({
  schema,
  method: 'GET',
  url: '/api/rows',
  httpStatus: '200',
});

describe('responseSerializerCompiler', () => {
  const presentedList = presentedResponse(z.array(Row));
  const plainList = z.array(Row);
  const exact = [{ id: 'a', name: null, tags: ['x'] }];

  it('serializes a presented list exactly as zod encodes it, in every mode', () => {
    for (const verify of [true, false]) {
      const serialize = responseSerializerCompiler({ verify })(route(presentedList));
      expect(serialize(exact)).toBe(JSON.stringify(plainList.encode(exact)));
    }
  });

  it('outside production, fails a presented response whose keys are out of the schema order', () => {
    const serialize = responseSerializerCompiler({ verify: true })(route(presentedList));
    expect(() => serialize([{ name: null, id: 'a', tags: ['x'] }])).toThrow(
      PresentedResponseMismatch,
    );
  });

  it('outside production, fails a presented response with a key the schema lacks', () => {
    const serialize = responseSerializerCompiler({ verify: true })(route(presentedList));
    expect(() => serialize([{ ...exact[0], secret: 'no' }])).toThrow(PresentedResponseMismatch);
  });

  it('outside production, fails a presented response the schema refuses, as zod did', () => {
    const serialize = responseSerializerCompiler({ verify: true })(route(presentedList));
    let thrown: unknown;
    try {
      serialize([{ id: 'a', name: 3, tags: [] }]);
    } catch (error) {
      thrown = error;
    }
    expect(isResponseSerializationError(thrown)).toBe(true);
  });

  it('in production, writes a presented response as built, without zod', () => {
    const serialize = responseSerializerCompiler({ verify: false })(route(presentedList));
    const asBuilt = [{ name: null, id: 'a', tags: ['x'] }];
    expect(serialize(asBuilt)).toBe(JSON.stringify(asBuilt));
  });

  it('encodes every other schema with zod in production too (unknown keys dropped)', () => {
    const serialize = responseSerializerCompiler({ verify: false })(route(plainList));
    expect(serialize([{ ...exact[0], secret: 'no' }])).toBe(JSON.stringify(exact));
    expect(() => serialize([{ id: 'a', name: 3, tags: [] }])).toThrow();
  });
});
