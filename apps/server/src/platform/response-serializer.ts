import type { FastifySerializerCompiler } from 'fastify/types/schema';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import type { ZodType } from 'zod';

/**
 * Response serialization (issue 27c, ADR 0010). Every response schema is encoded by zod and then
 * JSON.stringify'd (fastify-type-provider-zod), except the schemas marked here with
 * `presentedResponse()`: the hot lists, whose rows a presenter builds field by field in the
 * schema's own order from repository output. In production those are JSON.stringify'd directly
 * (zod's encode copied and checked every row of every page: about a tenth of a list request's CPU
 * time). Everywhere else (tests, development) they are encoded by zod as before *and* the direct
 * string must equal zod's byte for byte, or the response fails with a 500: every integration and
 * contract test that reaches a list therefore proves the shortcut changes nothing.
 */
const presented = new WeakSet<object>();

/** Marks a route's response schema as a presenter's exact output (see above); returns it. */
export function presentedResponse<Schema extends ZodType>(schema: Schema): Schema {
  presented.add(schema);
  return schema;
}

export const isPresentedResponse = (schema: unknown): boolean =>
  typeof schema === 'object' && schema !== null && presented.has(schema);

export class PresentedResponseMismatch extends Error {
  constructor(method: string, url: string, at: number) {
    super(
      `${method} ${url}: the presented response differs from its schema's encoding at character ${at}`,
    );
    this.name = 'PresentedResponseMismatch';
  }
}

const firstDifference = (a: string, b: string) => {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return i;
};

/** The app's serializer compiler: `verify` is false in production only. */
export function responseSerializerCompiler({
  verify,
}: {
  verify: boolean;
}): FastifySerializerCompiler<ZodType> {
  return (route) => {
    const encoded = zodSerializerCompiler(route);
    if (!isPresentedResponse(route.schema)) return encoded;
    if (!verify) return (data) => JSON.stringify(data);
    return (data) => {
      const checked = encoded(data);
      const direct = JSON.stringify(data);
      if (direct !== checked)
        throw new PresentedResponseMismatch(
          route.method,
          route.url,
          firstDifference(direct, checked),
        );
      return checked;
    };
  };
}
