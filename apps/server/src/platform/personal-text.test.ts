import { describe, expect, it } from 'vitest';

import type { DbExecutor } from './db';
import { enqueueJob } from './jobs';
import { holdsPersonalText, looksPersonal } from './personal-text';

describe('personal text (issue 26)', () => {
  it('finds checksum-valid ID numbers and MRZ lines, not other numbers', () => {
    expect(looksPersonal('driver 8505050102086 at gate')).toBe(true);
    expect(looksPersonal('8505050102087')).toBe(false); // checksum fails
    expect(looksPersonal('185050501020861')).toBe(false); // a longer run is not an ID number
    expect(looksPersonal('L898902C36UTO7408122F1204159ZE184226B<<<<<10')).toBe(true);
    expect(holdsPersonalText({ a: [{ b: 'x 8505050102086' }] })).toBe(true);
    expect(holdsPersonalText({ tenantId: 'c0ffee', count: 8505050102086 })).toBe(false);
  });

  it('refuses a job whose payload holds an ID number, before it reaches the queue', async () => {
    const calls: unknown[] = [];
    const tx = {
      execute: async (query: unknown) => {
        calls.push(query);
        return { rows: [{ id: '1' }] };
      },
    } as unknown as DbExecutor;
    const job = { name: 'test.job', maxAttempts: 1 } as const;
    await expect(enqueueJob(tx, job, { idNumber: '8505050102086' })).rejects.toThrow(
      /ID or passport number/,
    );
    expect(calls).toHaveLength(0);
    await enqueueJob(tx, job, { tenantId: '11111111-1111-4111-8111-111111111111' });
    expect(calls).toHaveLength(1);
  });
});
