import { generateKeyPairSync } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { loadEnv } from './env';

describe('loadEnv', () => {
  it('starts with no variables at all: port 5000, embedded database in ./data', () => {
    const env = loadEnv({});

    expect(env.PORT).toBe(5000);
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.dataDir).toMatch(/\/data$/);
    expect(env.PASSWORD_MIN_LENGTH).toBe(6);
  });

  it('lists every invalid variable, not just the first', () => {
    expect(() =>
      loadEnv({ PORT: 'eighty', DATABASE_URL: 'not a url', SESSION_SECRET: 'short' }),
    ).toThrow(/PORT[\s\S]*DATABASE_URL[\s\S]*SESSION_SECRET/);
  });

  it('refuses a minimum password length below the spec', () => {
    expect(() => loadEnv({ PASSWORD_MIN_LENGTH: '4' })).toThrow(/PASSWORD_MIN_LENGTH/);
  });

  it('turns the AI provider on only with all three variables, in fallback mode by default', () => {
    const ai = { AI_BASE_URL: 'http://127.0.0.1:8080/v1', AI_API_KEY: 'k', AI_MODEL: 'm' };

    expect(loadEnv({ ...ai, AI_MODEL: undefined }).aiProvider).toBeUndefined();
    expect(loadEnv(ai).aiProvider).toMatchObject({ model: 'm', mode: 'fallback' });
    expect(loadEnv({ ...ai, AI_MODE: 'primary' }).aiProvider).toMatchObject({ mode: 'primary' });
  });

  it('refuses an unknown AI mode', () => {
    expect(() => loadEnv({ AI_MODE: 'always' })).toThrow(/AI_MODE/);
  });

  it('reads a proxy hop count as a trust function, never as "trust everything"', () => {
    const trust = loadEnv({ TRUST_PROXY: '1' }).trustProxy;

    expect(typeof trust).toBe('function');
    expect((trust as (address: string, hop: number) => boolean)('10.0.0.1', 0)).toBe(true);
    expect((trust as (address: string, hop: number) => boolean)('10.0.0.1', 1)).toBe(false);
    expect(loadEnv({}).trustProxy).toBeUndefined();
  });

  it('runs as a site node only with central, its token and a pinned Ed25519 key', () => {
    const key = generateKeyPairSync('ed25519')
      .publicKey.export({ format: 'der', type: 'spki' })
      .toString('base64');
    const node = {
      SITE_NODE: '1',
      CENTRAL_URL: 'https://central.example.com/',
      SITE_TOKEN: 'token',
      CENTRAL_PUBLIC_KEY: key,
    };

    expect(loadEnv({}).siteNode).toBeUndefined();
    expect(loadEnv(node).siteNode).toMatchObject({
      centralUrl: 'https://central.example.com',
      pullIntervalMs: 15_000,
      staleAfterMs: 60_000,
    });
    expect(() => loadEnv({ SITE_NODE: '1' })).toThrow(
      /CENTRAL_URL[\s\S]*SITE_TOKEN[\s\S]*CENTRAL_PUBLIC_KEY/,
    );
    expect(() => loadEnv({ ...node, CENTRAL_PUBLIC_KEY: 'bm90IGEga2V5' })).toThrow(
      /CENTRAL_PUBLIC_KEY/,
    );
  });
});
