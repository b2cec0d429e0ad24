import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import type { Driver } from '@boomgate/contracts/drivers';
import { NEXT_CURSOR_HEADER } from '@boomgate/contracts/primitives';
import { passesLuhn } from '@boomgate/contracts/sa-id-number';

import { type TestApp, createTestApp } from '@/testing/test-app';

let sequence = 500;
function saId(): string {
  const twelve = `880808${String(sequence++).padStart(4, '0')}08`;
  const check = [...'0123456789'].find((digit) => passesLuhn(`${twelve}${digit}`)) ?? '0';
  return `${twelve}${check}`;
}

describe('GET /api/drivers, a page at a time (issue 26)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('pages newest first by cursor, opening only the page’s ID numbers', async () => {
    const admin = await t.registerTenant();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      t.clock.advanceMs(1000);
      const idNumber = saId();
      ids.push(idNumber);
      const created = await admin.post('/api/onboarding/drivers', {
        name: `Driver${i}`,
        surname: 'Page',
        idNumber,
      });
      expect(created.statusCode, created.body).toBe(201);
    }

    const opened = vi.spyOn(t.modules.keys.keyring, 'open');
    const first = await admin.get('/api/drivers?limit=2');
    expect(first.statusCode).toBe(200);
    expect(opened.mock.calls.filter(([, column]) => column === 'drivers.id_number')).toHaveLength(
      2,
    );
    opened.mockRestore();
    const seen = first.json<Driver[]>();
    let cursor = first.headers[NEXT_CURSOR_HEADER] as string | undefined;
    expect(cursor).toBeTruthy();
    while (cursor) {
      const next = await admin.get(`/api/drivers?limit=2&cursor=${encodeURIComponent(cursor)}`);
      expect(next.statusCode).toBe(200);
      seen.push(...next.json<Driver[]>());
      cursor = next.headers[NEXT_CURSOR_HEADER] as string | undefined;
    }
    expect(seen.map((driver) => driver.idNumber)).toEqual([...ids].reverse());

    // Without paging parameters: the first 100, the same array as before.
    const all = await admin.get('/api/drivers');
    expect(all.json<Driver[]>().map((driver) => driver.name)).toEqual([
      'Driver4',
      'Driver3',
      'Driver2',
      'Driver1',
      'Driver0',
    ]);
    expect(all.headers[NEXT_CURSOR_HEADER]).toBeUndefined();
  });

  it('answers a bad cursor or limit with 400', async () => {
    const admin = await t.registerTenant();
    expect((await admin.get('/api/drivers?cursor=nonsense')).statusCode).toBe(400);
    expect((await admin.get('/api/drivers?limit=0')).statusCode).toBe(400);
    expect((await admin.get('/api/drivers?limit=501')).statusCode).toBe(400);
  });
});
