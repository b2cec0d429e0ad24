import { describe, expect, it } from 'vitest';

import { type Resolve, checkCallbackUrl, isPublicAddress } from './callback-url';

/** No network: names resolve from this table only, and every lookup is counted. */
function stubResolver(table: Record<string, string[]>) {
  const calls: string[] = [];
  const resolve: Resolve = async (hostname) => {
    calls.push(hostname);
    const addresses = table[hostname];
    if (!addresses) throw Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { resolve, calls };
}

const production = { allowLoopback: false };

describe('checkCallbackUrl', () => {
  const { resolve } = stubResolver({
    'hooks.example.com': ['8.8.8.8'],
    'internal.example.com': ['10.1.2.3'],
    'mixed.example.com': ['8.8.8.8', '192.168.0.10'],
    'metadata.example.com': ['169.254.169.254'],
    'v6private.example.com': ['fd00::1'],
    '127.0.0.1.nip.io': ['127.0.0.1'],
  });

  it.each([
    'http://2130706433/',
    'http://0x7f.1/',
    'http://0177.0.0.1/',
    'http://127.1/',
    'https://127.0.0.1/',
    'https://[::1]/',
    'https://[::ffff:127.0.0.1]/',
    'https://[::ffff:7f00:1]/',
    'https://[::ffff:a9fe:a9fe]/',
    'https://169.254.169.254/latest/meta-data/',
    'https://10.0.0.1/',
    'https://172.16.0.1/',
    'https://192.168.1.1/',
    'https://100.64.0.1/',
    'https://[fc00::1]/',
    'https://[fd12:3456::1]/',
    'https://[fe80::1]/',
    'https://0.0.0.0/',
    'http://0/',
    'https://[::]/',
    'https://224.0.0.1/',
    'https://255.255.255.255/',
    'https://[64:ff9b::7f00:1]/',
    'https://[2002:7f00:1::]/',
    'https://localhost/',
    'https://localhost./',
    'https://api.localhost/',
    'https://internal.example.com/',
    'https://mixed.example.com/',
    'https://metadata.example.com/',
    'https://v6private.example.com/',
    'https://127.0.0.1.nip.io/',
    'https://unresolvable.example.com/',
    'http://hooks.example.com/',
    'https://hooks.example.com:22/',
    'https://user:pass@hooks.example.com/',
    'ftp://hooks.example.com/',
    'file:///etc/passwd',
    'gopher://hooks.example.com/',
    'javascript:alert(1)',
    'not a url',
  ])('refuses %s', async (url) => {
    const result = await checkCallbackUrl(url, production, resolve);

    expect(result.ok).toBe(false);
  });

  it('accepts a public https URL on port 443 only', async () => {
    expect(
      (await checkCallbackUrl('https://hooks.example.com/boomgate', production, resolve)).ok,
    ).toBe(true);
    expect(
      (await checkCallbackUrl('https://hooks.example.com:443/x', production, resolve)).ok,
    ).toBe(true);
    expect(await checkCallbackUrl('https://hooks.example.com:8443/x', production, resolve)).toEqual(
      { ok: false, reason: 'The callback URL must use port 443.' },
    );
  });

  it('refuses http to a public host even with the loopback flag set (SEC-63)', async () => {
    const development = { allowLoopback: true };

    expect(await checkCallbackUrl('http://hooks.example.com/x', development, resolve)).toEqual({
      ok: false,
      reason: 'The callback URL must use https.',
    });
    expect((await checkCallbackUrl('http://8.8.8.8/hook', development, resolve)).ok).toBe(false);
  });

  it('allows http on loopback only when the development flag is set', async () => {
    const development = { allowLoopback: true };

    expect((await checkCallbackUrl('http://127.0.0.1:4000/x', development, resolve)).ok).toBe(true);
    expect((await checkCallbackUrl('http://10.0.0.1:4000/x', development, resolve)).ok).toBe(false);
    expect((await checkCallbackUrl('http://127.0.0.1:4000/x', production, resolve)).ok).toBe(false);
  });

  it('never resolves an IP literal', async () => {
    const { resolve: counted, calls } = stubResolver({});

    await checkCallbackUrl('https://10.0.0.1/', production, counted);
    await checkCallbackUrl('https://[::1]/', production, counted);

    expect(calls).toEqual([]);
  });
});

describe('isPublicAddress', () => {
  it('judges an IPv4-mapped address by the IPv4 inside it', () => {
    expect(isPublicAddress('::ffff:8.8.8.8')).toBe(true);
    expect(isPublicAddress('::ffff:10.0.0.1')).toBe(false);
  });
});
