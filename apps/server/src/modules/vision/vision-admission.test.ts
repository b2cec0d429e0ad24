import type { ReadResult } from '@boomgate/vision';
import { describe, expect, it } from 'vitest';

import { AppError } from '@/platform/errors';

import type { GateVisionEngine } from './lazy-engine';
import { createVisionAdmission, withVisionAdmission } from './vision-admission';

/**
 * An engine whose reads start when the admission queue lets them and finish when the test says:
 * `started` lists them in the order they reached the engine.
 */
function controllableEngine() {
  const started: string[] = [];
  const pending = new Map<string, () => void>();
  const read: GateVisionEngine['read'] = (type, image) => {
    const name = Buffer.from(image).toString();
    started.push(name);
    return new Promise<ReadResult>((resolve) =>
      pending.set(name, () =>
        resolve({ ok: true, type, fields: {}, text: name, source: 'ocr', confidence: 1 }),
      ),
    );
  };
  const unused = () => Promise.reject(new Error('not used here'));
  const engine: GateVisionEngine = {
    read,
    compareFaces: unused,
    compareFaceToDescriptor: unused,
    embedFace: unused,
    checkFaceQuality: unused,
    close: () => Promise.resolve(),
  };
  return {
    engine,
    started,
    /** Finishes a running read and lets the queue hand out the freed slot. */
    async finish(name: string) {
      const resolve = pending.get(name);
      if (!resolve) throw new Error(`${name} is not running`);
      pending.delete(name);
      resolve();
      await new Promise((settled) => setImmediate(settled));
    },
  };
}

const image = (name: string) => new Uint8Array(Buffer.from(name));
const flush = () => new Promise((settled) => setImmediate(settled));

describe('vision admission queue', () => {
  it("starts another user's plate read after at most the per-user budget of a heavy user's reads", async () => {
    const fake = controllableEngine();
    const admission = createVisionAdmission({
      readsPerUser: 2,
      queuedPerUser: 10,
      readsInFlight: 2,
    });
    const work = withVisionAdmission(fake.engine, admission);
    const heavy = Array.from({ length: 10 }, (_, i) =>
      work.forUser('guard-a').read('passport', image(`a${i + 1}`)),
    );
    await flush();
    const plate = work.forUser('guard-b').read('plate', image('b1'));
    await flush();

    expect(fake.started).toEqual(['a1', 'a2']);
    expect(admission.snapshot().users).toEqual({
      'guard-a': { running: 2, waiting: 8 },
      'guard-b': { running: 0, waiting: 1 },
    });

    await fake.finish('a1');

    // The freed slot goes to the user who has not had a turn, not to guard A's third read.
    expect(fake.started).toEqual(['a1', 'a2', 'b1']);
    await fake.finish('b1');
    await expect(plate).resolves.toMatchObject({ ok: true, text: 'b1' });

    for (let next = 2; next <= 10; next++) await fake.finish(`a${next}`);
    expect(fake.started).toEqual([
      'a1',
      'a2',
      'b1',
      'a3',
      'a4',
      'a5',
      'a6',
      'a7',
      'a8',
      'a9',
      'a10',
    ]);
    await expect(Promise.all(heavy)).resolves.toHaveLength(10);
    expect(admission.snapshot()).toEqual({ running: 0, users: {} });
  });

  it('takes turns between users when every slot is busy', async () => {
    const fake = controllableEngine();
    const admission = createVisionAdmission({
      readsPerUser: 1,
      queuedPerUser: 10,
      readsInFlight: 1,
    });
    const work = withVisionAdmission(fake.engine, admission);
    for (const name of ['a1', 'a2', 'a3']) void work.forUser('a').read('plate', image(name));
    for (const name of ['b1', 'b2']) void work.forUser('b').read('plate', image(name));
    void work.forUser('c').read('plate', image('c1'));
    await flush();

    for (const name of ['a1', 'b1', 'c1', 'a2', 'b2']) await fake.finish(name);

    expect(fake.started).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3']);
  });

  it('never lets one user hold more than its budget, even with free slots, and admits others at once', async () => {
    const fake = controllableEngine();
    const admission = createVisionAdmission({
      readsPerUser: 2,
      queuedPerUser: 10,
      readsInFlight: 8,
    });
    const work = withVisionAdmission(fake.engine, admission);
    for (let i = 1; i <= 10; i++) void work.forUser('a').read('id', image(`a${i}`));
    void work.forUser('b').read('plate', image('b1'));
    await flush();

    expect(fake.started).toEqual(['a1', 'a2', 'b1']);
  });

  it('answers 429 with Retry-After beyond the per-user queue, and only for that user', async () => {
    const fake = controllableEngine();
    const admission = createVisionAdmission({
      readsPerUser: 2,
      queuedPerUser: 3,
      readsInFlight: 4,
    });
    const work = withVisionAdmission(fake.engine, admission);
    const reads = Array.from({ length: 7 }, (_, i) =>
      work.forUser('a').read('passport', image(`a${i + 1}`)),
    );
    const settled = await Promise.allSettled(reads.slice(5));
    const other = work.forUser('b').read('plate', image('b1'));
    await flush();

    expect(settled.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    const refusal = (settled[0] as PromiseRejectedResult).reason as AppError;
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal.code).toBe('RATE_LIMITED');
    expect(refusal.message).toMatch(/Too many images are being read for you at once/);
    expect(refusal.details.retryAfterSeconds).toBe(2);
    expect(fake.started).toEqual(['a1', 'a2', 'b1']);
    expect(admission.snapshot().users).toMatchObject({ a: { running: 2, waiting: 3 } });
    void other;
  });

  it('frees the slot when a read fails or throws', async () => {
    const admission = createVisionAdmission({
      readsPerUser: 1,
      queuedPerUser: 5,
      readsInFlight: 1,
    });
    const failing = admission.run('a', () => Promise.reject(new Error('worker crashed')));
    const throwing = admission.run('a', () => {
      throw new Error('bug');
    });
    const after = admission.run('a', () => Promise.resolve('read'));

    await expect(failing).rejects.toThrow('worker crashed');
    await expect(throwing).rejects.toThrow('bug');
    await expect(after).resolves.toBe('read');
    expect(admission.snapshot()).toEqual({ running: 0, users: {} });
  });
});
