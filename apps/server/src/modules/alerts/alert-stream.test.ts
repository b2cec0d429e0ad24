import { EventEmitter } from 'node:events';

import type pg from 'pg';
import { describe, expect, it, vi } from 'vitest';

import { createAlertStreamHub } from './alert-stream';

/** A pooled connection as pg-pool hands it out: a second release throws, as the real pool does. */
function aPoolClient({ failUnlisten = false } = {}) {
  const events = new EventEmitter();
  let checkedOut = true;
  const query = vi.fn(async (text: string) => {
    if (failUnlisten && text.startsWith('unlisten')) {
      // The server ends the connection: pg emits 'error' on the client and rejects the query.
      events.emit('error', new Error('terminating connection due to administrator command'));
      throw new Error('Connection terminated unexpectedly');
    }
    return { rows: [] };
  });
  const release = vi.fn(() => {
    if (!checkedOut) throw new Error('Release called on client which has already been released');
    checkedOut = false;
  });
  /** The pool hands the same client object out again, as pg-pool does. */
  const checkOut = () => {
    checkedOut = true;
    return client;
  };
  const client = Object.assign(events, { query, release }) as unknown as pg.PoolClient;
  return { client, query, release, checkOut, isCheckedOut: () => checkedOut };
}

describe('alert stream hub', () => {
  it('releases a connection that fails while it stops listening once, without throwing', async () => {
    const { client, release } = aPoolClient({ failUnlisten: true });
    const log = vi.fn();
    const hub = createAlertStreamHub({
      pool: { connect: async () => client },
      readEvent: async () => ({ unreadCount: 0 }),
      log,
    });

    const unsubscribe = await hub.subscribe(
      '7d1d3c57-8f38-4b8e-9a51-5e8d7b0c9a10',
      () => undefined,
    );
    unsubscribe();
    await hub.close();

    expect(release).toHaveBeenCalledTimes(1);
    expect(log).toHaveBeenCalledWith(expect.stringMatching(/listening connection lost/));
  });

  it('listens on one connection and releases it when the last stream ends', async () => {
    const { client, query, release } = aPoolClient();
    const connect = vi.fn(async () => client);
    const hub = createAlertStreamHub({
      pool: { connect },
      readEvent: async () => ({ unreadCount: 0 }),
      log: () => undefined,
    });

    const first = await hub.subscribe('7d1d3c57-8f38-4b8e-9a51-5e8d7b0c9a10', () => undefined);
    const second = await hub.subscribe('7d1d3c57-8f38-4b8e-9a51-5e8d7b0c9a10', () => undefined);
    first();
    expect(release).not.toHaveBeenCalled();
    second();
    await hub.close();

    expect(connect).toHaveBeenCalledTimes(1);
    expect(query).toHaveBeenCalledWith('listen boomgate_alerts');
    expect(release).toHaveBeenCalledTimes(1);
  });

  it('releases the same pooled client each time it is handed out again', async () => {
    const { client, release, checkOut, isCheckedOut } = aPoolClient();
    const hub = createAlertStreamHub({
      pool: { connect: async () => checkOut() },
      readEvent: async () => ({ unreadCount: 0 }),
      log: () => undefined,
    });
    const tenantId = '7d1d3c57-8f38-4b8e-9a51-5e8d7b0c9a10';

    for (let round = 0; round < 3; round += 1) {
      const unsubscribe = await hub.subscribe(tenantId, () => undefined);
      expect(isCheckedOut()).toBe(true);
      unsubscribe();
      await vi.waitFor(() => expect(isCheckedOut()).toBe(false));
    }
    await hub.close();

    expect(release).toHaveBeenCalledTimes(3);
    // The hub's handlers come off on release: the next borrower's errors are not ours.
    expect(client.listenerCount('error')).toBe(0);
    expect(client.listenerCount('notification')).toBe(0);
  });

  it('gives the connection back when the hub closes while it is being opened', async () => {
    const { client, release } = aPoolClient();
    let handOut: (value: pg.PoolClient) => void = () => undefined;
    const hub = createAlertStreamHub({
      pool: { connect: () => new Promise<pg.PoolClient>((resolve) => (handOut = resolve)) },
      readEvent: async () => ({ unreadCount: 0 }),
      log: () => undefined,
    });

    const subscribing = hub.subscribe('7d1d3c57-8f38-4b8e-9a51-5e8d7b0c9a10', () => undefined);
    const closing = hub.close();
    handOut(client);
    await Promise.all([subscribing, closing]);

    expect(release).toHaveBeenCalledTimes(1);
  });

  it('a second unsubscribe of an ended stream leaves the newer stream of the tenant listening', async () => {
    const { client, checkOut } = aPoolClient();
    const hub = createAlertStreamHub({
      pool: { connect: async () => checkOut() },
      readEvent: async () => ({ unreadCount: 1 }),
      log: () => undefined,
    });
    const tenantId = '7d1d3c57-8f38-4b8e-9a51-5e8d7b0c9a10';

    const endFirst = await hub.subscribe(tenantId, () => undefined);
    endFirst();
    const received = vi.fn();
    await hub.subscribe(tenantId, received);
    endFirst(); // the route's catch and the request's close may both end a stream
    client.emit('notification', {
      channel: 'boomgate_alerts',
      payload: JSON.stringify({ tenantId, alertId: '0b0c4e3a-8d5c-4e8e-9f0a-2a9d9c1b7e11' }),
    });

    await vi.waitFor(() => expect(received).toHaveBeenCalledWith({ unreadCount: 1 }));
    await hub.close();
  });

  it('listens again after a lost connection, retrying until the database answers', async () => {
    vi.useFakeTimers();
    try {
      const first = aPoolClient();
      const second = aPoolClient();
      let connects = 0;
      const connect = vi.fn(async () => {
        connects += 1;
        if (connects === 1) return first.client;
        if (connects <= 3) throw new Error('connect ECONNREFUSED');
        return second.client;
      });
      const log = vi.fn();
      const hub = createAlertStreamHub({
        pool: { connect },
        readEvent: async () => ({ unreadCount: 2 }),
        log,
      });
      const tenantId = '7d1d3c57-8f38-4b8e-9a51-5e8d7b0c9a10';
      const received = vi.fn();
      await hub.subscribe(tenantId, received);

      first.client.emit('error', new Error('terminating connection due to administrator command'));
      // 1 s, then 2 s after the first failure, then 4 s after the second: the third try answers.
      await vi.advanceTimersByTimeAsync(1000 + 2000 + 4000);

      expect(connect).toHaveBeenCalledTimes(4);
      expect(log).toHaveBeenCalledWith(expect.stringMatching(/could not listen again/));
      expect(second.query).toHaveBeenCalledWith('listen boomgate_alerts');
      second.client.emit('notification', {
        channel: 'boomgate_alerts',
        payload: JSON.stringify({ tenantId, alertId: '0b0c4e3a-8d5c-4e8e-9f0a-2a9d9c1b7e11' }),
      });
      await vi.advanceTimersByTimeAsync(0);
      expect(received).toHaveBeenCalledWith({ unreadCount: 2 });
      await hub.close();
    } finally {
      vi.useRealTimers();
    }
  });
});
