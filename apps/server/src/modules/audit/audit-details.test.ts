import { randomBytes } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { columnContext, isSealedValue, openValue, sealValue } from '@/platform/sealing';

import {
  type AuditSealer,
  looksPersonal,
  needsSealing,
  openDetails,
  sealDetails,
} from './audit-details';

const tenantId = '11111111-1111-4111-8111-111111111111';
const key = { version: 1, key: randomBytes(32) };
const sealer: AuditSealer = {
  seal: async (tenant, column, value) => sealValue(key, value, columnContext(tenant, column)),
  open: async (tenant, column, stored) =>
    openValue((v) => (v === 1 ? key.key : undefined), stored, columnContext(tenant, column)),
};

describe('audit details sealing (issue 26)', () => {
  const details = {
    siteId: 'a1b2',
    reason: 'Driver 8505050102086 turned away',
    watchlistHits: [{ kind: 'idNumber', value: '8505050102086', reason: 'Banned' }],
    driverName: 'Sipho Nkosi',
    mrz: 'L898902C36UTO7408122F1204159ZE184226B<<<<<10',
    count: 3,
    flag: true,
    nothing: null,
  };

  it('seals ID numbers, MRZ lines and names, keeps the rest filterable, and opens them back', async () => {
    const stored = await sealDetails(sealer, tenantId, details);
    const text = JSON.stringify(stored);
    expect(text).not.toContain('8505050102086');
    expect(text).not.toContain('Sipho');
    expect(text).not.toContain('L898902C3');
    expect(stored.siteId).toBe('a1b2');
    expect(stored.count).toBe(3);
    expect((stored.watchlistHits as { kind: string }[])[0]?.kind).toBe('idNumber');
    expect(isSealedValue(stored.driverName as string)).toBe(true);
    expect(await openDetails(sealer, tenantId, stored)).toEqual(details);
  });

  it('does not open under another tenant; reads rows stored before sealing as they are', async () => {
    const stored = await sealDetails(sealer, tenantId, details);
    await expect(
      openDetails(sealer, '22222222-2222-4222-8222-222222222222', stored),
    ).rejects.toThrow();
    expect(await openDetails(sealer, tenantId, details)).toEqual(details);
  });

  it('seals a user’s text that looks like a sealed value, so it reads back as written', async () => {
    const odd = { note: 'sv1.1.abc.def.ghi' };
    const stored = await sealDetails(sealer, tenantId, odd);
    expect(stored.note).not.toBe(odd.note);
    expect(await openDetails(sealer, tenantId, stored)).toEqual(odd);
  });

  it('tells personal text apart: checksum-valid 13-digit runs, not other numbers', () => {
    expect(looksPersonal('id 8505050102086')).toBe(true);
    expect(looksPersonal('8505050102087')).toBe(false);
    expect(looksPersonal('85050501020861')).toBe(false);
    expect(needsSealing({ a: { surname: 'Dlamini' } })).toBe(true);
    expect(needsSealing({ siteId: 'x', events: 4 })).toBe(false);
  });
});
