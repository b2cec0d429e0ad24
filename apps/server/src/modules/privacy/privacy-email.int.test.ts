import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { DataSubjectErasure, EmailSubjectExport } from '@boomgate/contracts/privacy';

import { type TestApp, createTestApp } from '@/testing/test-app';

/** Issue 23: data-subject requests by e-mail address (scheduled report recipients). */
describe('data-subject requests by e-mail address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const schedule = (recipients: string[]) => ({ frequency: 'weekly', recipients });

  it('exports and erases a recipient of the scheduled report, in its own organization only', async () => {
    const acme = await t.registerTenant();
    const other = await t.registerTenant();
    expect(
      (
        await acme.patch(
          '/api/reports/schedule',
          schedule(['thandi@example.com', 'ops@example.com']),
        )
      ).statusCode,
    ).toBe(200);
    expect(
      (await other.patch('/api/reports/schedule', schedule(['thandi@example.com']))).statusCode,
    ).toBe(200);

    // Matched case-insensitively (addresses are kept lower case).
    const exported = await acme.post('/api/data-subjects/email/export', {
      email: 'Thandi@Example.com',
    });
    expect(exported.statusCode, exported.body).toBe(200);
    expect(exported.headers['content-disposition']).toMatch(/^attachment; filename="data-subject-/);
    const body = exported.json<EmailSubjectExport>();
    expect(body.email).toBe('thandi@example.com');
    expect(body.records.reportSchedules).toEqual([
      expect.objectContaining({
        id: acme.body.tenant.id,
        recipient: 'thandi@example.com',
        otherRecipients: 1,
        frequency: 'weekly',
      }),
    ]);
    // Nobody else's address and no other organization's schedule is in it.
    expect(JSON.stringify(body)).not.toContain('ops@example.com');
    expect(JSON.stringify(body)).not.toContain(other.body.tenant.id);

    const erased = await acme.post('/api/data-subjects/email/erase', {
      email: 'thandi@example.com',
    });
    expect(erased.statusCode, erased.body).toBe(200);
    expect(erased.json<DataSubjectErasure>()).toMatchObject({
      erased: { reportSchedules: 1 },
      imagesDeleted: 0,
    });
    expect((await acme.get('/api/reports/schedule')).json()).toMatchObject({
      frequency: 'weekly',
      recipients: ['ops@example.com'],
    });
    // Again: nothing left (zeros), and the export is empty.
    expect(
      (await acme.post('/api/data-subjects/email/erase', { email: 'thandi@example.com' })).json(),
    ).toMatchObject({ erased: { reportSchedules: 0 } });
    expect(
      (
        await acme.post('/api/data-subjects/email/export', { email: 'thandi@example.com' })
      ).json<EmailSubjectExport>().records.reportSchedules,
    ).toEqual([]);
    // The other organization still sends to it.
    expect((await other.get('/api/reports/schedule')).json()).toMatchObject({
      recipients: ['thandi@example.com'],
    });

    // Audited under a keyed reference, never the address.
    const audits = await t.ownerQuery<{ action: string; target_id: string; details: unknown }>(
      `select action, target_id, details from audit_events
        where tenant_id = $1 and target_type = 'data_subject_email' order by occurred_at`,
      [acme.body.tenant.id],
    );
    expect(audits.map((event) => event.action)).toEqual([
      'data-subject.exported',
      'data-subject.erased',
      'data-subject.erased',
      'data-subject.exported',
    ]);
    expect(JSON.stringify(audits)).not.toContain('thandi');
  });

  it('turns the schedule off when its last recipient is erased', async () => {
    const acme = await t.registerTenant();
    await acme.patch('/api/reports/schedule', schedule(['only@example.com']));
    const erased = await acme.post('/api/data-subjects/email/erase', {
      email: 'only@example.com',
    });
    expect(erased.json()).toMatchObject({ erased: { reportSchedules: 1 } });
    expect((await acme.get('/api/reports/schedule')).json()).toMatchObject({
      frequency: 'off',
      recipients: [],
    });
  });

  it('answers a bad address 400 and other roles 403', async () => {
    const acme = await t.registerTenant();
    for (const payload of [{ email: 'not an address' }, {}, { email: 'a@example.com', x: 1 }]) {
      const response = await acme.post('/api/data-subjects/email/export', payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json()).toMatchObject({ error: { code: 'INVALID' } });
    }
    const office = await t.createSignedInUser(acme, 'back_office');
    expect(
      (await office.post('/api/data-subjects/email/erase', { email: 'a@example.com' })).statusCode,
    ).toBe(403);
  });
});
