import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';

import { publicAccess, requireAccessDeclarations } from './access';
import { AppError } from './errors';
import { handleError, holdsNulCharacter, hostnameOf, isAllowedHost } from './http';

function appThatThrows(error: unknown) {
  const app = Fastify({ logger: false });
  app.setErrorHandler(handleError);
  app.get('/boom', async () => {
    throw error;
  });
  return app;
}

describe('handleError', () => {
  it('answers an unexpected error with a generic 500 that leaks nothing', async () => {
    const app = appThatThrows(
      new Error('duplicate key value violates unique constraint "x" SELECT * FROM users'),
    );

    const response = await app.inject({ method: 'GET', url: '/boom' });

    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      error: { code: 'INTERNAL', message: 'Something went wrong on our side. Please try again.' },
    });
    expect(response.body).not.toMatch(/SELECT|unique|at /);
  });

  it('answers an unreachable database with 503 and Retry-After', async () => {
    const app = appThatThrows(
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
    );

    const response = await app.inject({ method: 'GET', url: '/boom' });

    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('5');
    expect(response.json().error.code).toBe('UNAVAILABLE');
  });

  it('answers a multipart body the parser cannot read with 400, not 500', async () => {
    for (const message of ['Unexpected end of multipart data', 'Multipart: Boundary not found']) {
      const response = await appThatThrows(new Error(message)).inject({
        method: 'GET',
        url: '/boom',
      });

      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        error: { code: 'INVALID', message: 'The multipart/form-data body could not be read.' },
      });
    }
  });

  it('answers a value PostgreSQL refuses (a NUL in text) with 400, not 500', async () => {
    const pgError = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), {
      code: '22021',
    });
    const response = await appThatThrows(
      Object.assign(new Error('Failed query: insert …'), { cause: pgError }),
    ).inject({ method: 'GET', url: '/boom' });

    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('INVALID');
    expect(response.body).not.toMatch(/0x00|insert|UTF8/);
  });

  it('maps an AppError code to its status with the message', async () => {
    const app = appThatThrows(new AppError('CONFLICT', 'Username already exists'));

    const response = await app.inject({ method: 'GET', url: '/boom' });

    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      error: { code: 'CONFLICT', message: 'Username already exists' },
    });
  });
});

describe('requireAccessDeclarations', () => {
  it('refuses an API route that does not say who may call it', () => {
    const app = Fastify({ logger: false });
    requireAccessDeclarations(app, { isApiRoute: (url) => url.startsWith('/api/') });

    expect(() => app.get('/api/undeclared', async () => 'x')).toThrow(
      /does not declare its access/,
    );
    expect(() =>
      app.get('/api/declared', { config: publicAccess() }, async () => 'x'),
    ).not.toThrow();
  });
});

describe('isAllowedHost (Host allowlist)', () => {
  const names = new Set(['gate.example.com', 'boomgate.mine.co.za']);

  it.each([
    'gate.example.com',
    'gate.example.com:443',
    'GATE.example.com.',
    'boomgate.mine.co.za:8080',
    'localhost:80',
    'localhost',
    'app.localhost:5173',
    '127.0.0.1:5000',
    '192.168.1.20:5000',
    '[::1]:5000',
  ])('answers for %s', (host) => {
    expect(isAllowedHost(host, names)).toBe(true);
  });

  it.each(['evil.example', 'sub.gate.example.com', 'gate.example.com.evil.example', '', ':80'])(
    'refuses %s',
    (host) => {
      expect(isAllowedHost(host, names)).toBe(false);
    },
  );

  it('reads the name without the port or brackets', () => {
    expect(hostnameOf('[::1]:80')).toBe('::1');
    expect(hostnameOf('Gate.Example.com:443')).toBe('gate.example.com');
  });
});

describe('holdsNulCharacter', () => {
  it('finds a NUL in any string of a JSON body, key or value, however deep', () => {
    expect(holdsNulCharacter(JSON.stringify({ issuingCountry: 'ZA\u0000' }))).toBe(true);
    expect(holdsNulCharacter(JSON.stringify({ a: [{ b: ['x', 'y\u0000z'] }] }))).toBe(true);
    expect(holdsNulCharacter(JSON.stringify({ ['k\u0000']: 1 }))).toBe(true);
    expect(holdsNulCharacter('{"surname":"\\U0000"}'.toLowerCase())).toBe(true);
  });

  it('lets through bodies without one, including the escape written as text', () => {
    expect(holdsNulCharacter(JSON.stringify({ surname: 'Nkosi', n: 0 }))).toBe(false);
    // A backslash followed by "u0000" is six ordinary characters, not a NUL.
    expect(holdsNulCharacter(JSON.stringify({ note: '\\u0000' }))).toBe(false);
  });
});
