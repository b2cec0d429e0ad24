import type { LookupAddress } from 'node:dns';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type Receiver, startReceiver } from '@/testing/webhooks';

import { type Lookup, createCallbackSender } from './callback-sender';

/**
 * Connect-time SSRF guard. Only loopback traffic: the stub resolver answers a public address for
 * the checks made before connecting, then 127.0.0.1 at connect time (DNS rebinding). A sentinel
 * server listens on that 127.0.0.1 port; if the guard failed, it would record a hit.
 */
describe('createCallbackSender against DNS rebinding', () => {
  let sentinel: Receiver;
  beforeAll(async () => {
    sentinel = await startReceiver();
  });
  afterAll(() => sentinel.close());

  function rebindingLookup(publicAnswers: number) {
    const calls: string[] = [];
    const lookup: Lookup = (hostname, _options, callback) => {
      calls.push(hostname);
      const address: LookupAddress =
        calls.length <= publicAnswers
          ? { address: '8.8.8.8', family: 4 }
          : { address: '127.0.0.1', family: 4 };
      callback(null, [address]);
    };
    return { lookup, calls };
  }

  it('refuses to connect when the name re-resolves to loopback at connect time', async () => {
    const { lookup, calls } = rebindingLookup(2); // save-time check, pre-send check
    const sender = createCallbackSender({
      policy: { allowLoopback: false },
      timeoutMs: 2_000,
      lookup,
    });
    const url = 'https://rebind.test/hook';

    const saved = await sender.check(url);
    const result = await sender.send({ url, body: '{}', headers: {} });
    await sender.close();

    expect(saved.ok).toBe(true);
    expect(calls.length).toBeGreaterThanOrEqual(3);
    expect(result.status).toBeNull();
    expect(result.error).toMatch(/non-public address/);
    expect(sentinel.received).toHaveLength(0);
  });

  it('refuses before connecting when the name already resolves to loopback', async () => {
    const { lookup } = rebindingLookup(1);
    const sender = createCallbackSender({
      policy: { allowLoopback: false },
      timeoutMs: 2_000,
      lookup,
    });
    const url = 'https://rebind.test/hook';

    await sender.check(url);
    const result = await sender.send({ url, body: '{}', headers: {} });
    await sender.close();

    expect(result.error).toMatch(/private, local or reserved/);
    expect(sentinel.received).toHaveLength(0);
  });

  it('refuses an IP literal (lookup is skipped for literals) without connecting', async () => {
    const sender = createCallbackSender({
      policy: { allowLoopback: false },
      timeoutMs: 2_000,
      lookup: () => {
        throw new Error('lookup must not be called for a literal');
      },
    });

    const result = await sender.send({
      url: `http://127.0.0.1:${sentinel.port}/hook`,
      body: '{}',
      headers: {},
    });
    await sender.close();

    expect(result.status).toBeNull();
    expect(sentinel.received).toHaveLength(0);
  });

  it('reaches the loopback receiver when the development flag allows it', async () => {
    const sender = createCallbackSender({
      policy: { allowLoopback: true },
      timeoutMs: 2_000,
    });

    const result = await sender.send({
      url: sentinel.url,
      body: '{"a":1}',
      headers: { 'webhook-id': 'msg_x' },
    });
    await sender.close();

    expect(result).toEqual({ status: 200, retryAfter: null, error: null });
    expect(sentinel.received).toHaveLength(1);
    expect(sentinel.received[0]).toMatchObject({
      body: '{"a":1}',
      headers: { 'webhook-id': 'msg_x' },
    });
  });
});
