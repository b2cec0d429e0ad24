import { describe, expect, it } from 'vitest';

import { isDatabaseUnavailable } from './http';

// What the driver and drizzle actually throw when PostgreSQL is down, restarting or too slow.
const wrapped = (cause: unknown) =>
  Object.assign(new Error('Failed query: select 1\nparams: '), { cause });

describe('isDatabaseUnavailable (503 rather than 500)', () => {
  it.each([
    [
      'a refused connection',
      Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
    ],
    [
      'a refused connection inside drizzle',
      wrapped(Object.assign(new Error('x'), { code: 'ECONNREFUSED' })),
    ],
    [
      'an AggregateError of refusals (IPv4 and IPv6)',
      new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })]),
    ],
    [
      'the server shutting down (57P01)',
      wrapped(Object.assign(new Error('terminating'), { code: '57P01' })),
    ],
    ['the server starting (57P03)', Object.assign(new Error('starting up'), { code: '57P03' })],
    ['a broken connection (08006)', Object.assign(new Error('x'), { code: '08006' })],
    [
      'a statement past statement_timeout (57014)',
      wrapped(Object.assign(new Error('canceling'), { code: '57014' })),
    ],
    ['a connection lost mid-query', wrapped(new Error('Connection terminated unexpectedly'))],
    ['a pool that could not connect in time', new Error('timeout exceeded when trying to connect')],
    [
      'a client left broken by an earlier error',
      wrapped(new Error('Client has encountered a connection error and is not queryable')),
    ],
  ])('is true for %s', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', wrapped(Object.assign(new Error('dup'), { code: '23505' }))],
    ['a missing privilege', wrapped(Object.assign(new Error('denied'), { code: '42501' }))],
    ['a plain bug', new TypeError('undefined is not a function')],
  ])('is false for %s', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
