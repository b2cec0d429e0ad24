import type { AddressInfo } from 'node:net';

import ExcelJS from 'exceljs';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { ReportSchedule } from '@boomgate/contracts/reports';

import { readPdf } from '@/testing/pdf';
import { type TestApp, createTestApp } from '@/testing/test-app';
import { runJobs } from '@/testing/webhooks';

type Mail = { to: string[]; raw: string };

/** A local SMTP server (smtp-server), as the alerts' channel tests use. */
async function startSmtp() {
  const received: Mail[] = [];
  let failing = false;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (failing)
          return callback(Object.assign(new Error('Mailbox busy'), { responseCode: 451 }));
        received.push({
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    fail: (on: boolean) => {
      failing = on;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The base64 body of the message's attachment (nodemailer's MIME, one attachment). */
function attachmentOf(raw: string): Buffer {
  const start = raw.indexOf('Content-Disposition: attachment');
  const body = raw.indexOf('\r\n\r\n', start) + 4;
  const end = raw.indexOf('\r\n--', body);
  return Buffer.from(raw.slice(body, end).replace(/\s+/g, ''), 'base64');
}

describe('scheduled report e-mails (issue 23)', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp({
      env: { SMTP_URL: smtp.url, SMTP_FROM: 'Boomgate <reports@gate.example.com>' },
    });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const entry = (tenantId: string, at: string, granted: boolean) =>
    t.ownerQuery(
      `insert into entry_logs (tenant_id, id, timestamp, plate_number, vehicle_approved,
         face_verified, entry_granted, refusal_reason)
       values ($1, gen_random_uuid(), $2, 'CA1', true, false, $3, $4)`,
      [tenantId, at, granted, granted ? null : 'guard_refused'],
    );

  it('e-mails the previous SAST day as an XLSX once it is due, once, and is audited', async () => {
    await t.ownerQuery('delete from graphile_worker._private_jobs');
    // 23:30 SAST on Tuesday 10 March.
    t.clock.set(new Date('2026-03-10T21:30:00Z'));
    const admin = await t.registerTenant();
    const tenantId = admin.body.tenant.id;
    await entry(tenantId, '2026-03-09T22:10:00Z', true); // 00:10 SAST on the 10th
    await entry(tenantId, '2026-03-10T08:00:00Z', false);
    await entry(tenantId, '2026-03-10T22:00:00Z', true); // 00:00 SAST on the 11th: not in it
    const other = await t.registerTenant();
    await entry(other.body.tenant.id, '2026-03-10T08:00:00Z', true);

    const saved = await admin.patch('/api/reports/schedule', {
      frequency: 'daily',
      recipients: ['Manager@Example.com', 'ops@example.com', 'manager@example.com'],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const expected: ReportSchedule = {
      frequency: 'daily',
      format: 'xlsx',
      recipients: ['manager@example.com', 'ops@example.com'],
      siteId: null,
      nextSendAt: '2026-03-11T04:00:00.000Z',
    };
    expect(saved.json()).toEqual(expected);
    expect((await admin.get('/api/reports/schedule')).json()).toEqual(expected);
    // The other organization has no schedule and sees none.
    expect((await other.get('/api/reports/schedule')).json()).toMatchObject({ frequency: 'off' });

    const schedules = t.modules.reports.scheduledEmails;
    t.clock.set(new Date('2026-03-11T03:59:00Z'));
    expect(await schedules.queueDue()).toBe(0);
    t.clock.set(new Date('2026-03-11T04:05:00Z'));
    expect(await schedules.queueDue()).toBe(1);
    expect(await schedules.queueDue()).toBe(0);
    // (The admin's session has expired over the night: read the row itself.)
    const [moved] = await t.ownerQuery<{ next_send_at: Date }>(
      'select next_send_at from report_schedules where tenant_id = $1',
      [tenantId],
    );
    expect(moved?.next_send_at.toISOString()).toBe('2026-03-12T04:00:00.000Z');

    // The SMTP server refuses the first attempt: the job fails and stays queued for a retry.
    smtp.fail(true);
    await runJobs(t);
    expect(smtp.received).toHaveLength(0);
    smtp.fail(false);
    await t.ownerQuery('update graphile_worker._private_jobs set run_at = now()');
    await runJobs(t);

    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0]!;
    expect(mail.to).toEqual(['manager@example.com', 'ops@example.com']);
    expect(mail.raw).toContain('Subject: Boomgate daily report: 2026-03-10');
    expect(mail.raw).toContain('Entries: 2 (granted 1, refused 1)');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(attachmentOf(mail.raw) as unknown as ArrayBuffer);
    const summary = new Map<string, unknown>();
    workbook.getWorksheet('Summary')!.eachRow((row) => {
      const [, figure, value] = row.values as unknown[];
      summary.set(String(figure), value);
    });
    expect(summary.get('From')).toBe('2026-03-10');
    expect(summary.get('Entries')).toBe(2);
    expect(summary.get('Refused')).toBe(1);
    expect(workbook.getWorksheet('Refusals')!.getRow(2).values).toEqual([
      undefined,
      'guard_refused',
      1,
    ]);

    const audits = await t.ownerQuery<{ action: string; details: Record<string, unknown> }>(
      `select action, details from audit_events where tenant_id = $1 and action like 'reports.%'
       order by occurred_at`,
      [tenantId],
    );
    expect(audits).toEqual([
      {
        action: 'reports.schedule-changed',
        details: { frequency: 'daily', format: 'xlsx', recipients: 2 },
      },
      {
        action: 'reports.emailed',
        details: {
          frequency: 'daily',
          from: '2026-03-10',
          to: '2026-03-10',
          format: 'xlsx',
          recipients: 2,
        },
      },
    ]);

    // Turned off: nothing is due any more.
    t.clock.set(new Date('2026-03-11T04:10:00Z'));
    const again = await t.registerTenant();
    await again.patch('/api/reports/schedule', {
      frequency: 'daily',
      recipients: ['x@example.com'],
    });
    const off = await again.patch('/api/reports/schedule', { frequency: 'off', recipients: [] });
    expect(off.json()).toEqual({
      frequency: 'off',
      format: 'xlsx',
      recipients: [],
      siteId: null,
      nextSendAt: null,
    });
    expect(
      await t.ownerQuery('select 1 from report_schedules where tenant_id = $1', [
        again.body.tenant.id,
      ]),
    ).toEqual([]);
    // A week later only the first organization's schedule is due.
    t.clock.set(new Date('2026-03-20T04:05:00Z'));
    expect(await schedules.queueDue()).toBe(1);
  });

  it("e-mails one site's report cut in that site's timezone", async () => {
    await t.ownerQuery('delete from graphile_worker._private_jobs');
    // 12:00 UTC on Tuesday 10 March; London is on UTC until 29 March.
    t.clock.set(new Date('2026-03-10T12:00:00Z'));
    const admin = await t.registerTenant();
    const tenantId = admin.body.tenant.id;
    const created = await admin.post('/api/sites', {
      name: 'London depot',
      timezone: 'Europe/London',
    });
    expect(created.statusCode, created.body).toBe(201);
    const london = created.json<{ id: string }>().id;
    const [home] = (await admin.get('/api/sites')).json<{ id: string }[]>();
    const at = (siteId: string, timestamp: string, granted: boolean) =>
      t.ownerQuery(
        `insert into entry_logs (tenant_id, id, timestamp, plate_number, vehicle_approved,
           face_verified, entry_granted, refusal_reason, site_id)
         values ($1, gen_random_uuid(), $2, 'CA1', true, false, $3, $4, $5)`,
        [tenantId, timestamp, granted, granted ? null : 'guard_refused', siteId],
      );
    await at(london, '2026-03-09T23:30:00Z', true); // the 9th in London (the 10th in SAST): out
    await at(london, '2026-03-10T00:10:00Z', true); // 00:10 on the 10th in London: in
    await at(london, '2026-03-10T23:30:00Z', false); // 23:30 on the 10th in London: in
    await at(london, '2026-03-11T00:05:00Z', true); // the 11th in London: out
    await at(home!.id, '2026-03-10T08:00:00Z', true); // another site: out

    const saved = await admin.patch('/api/reports/schedule', {
      frequency: 'daily',
      recipients: ['depot@example.com'],
      siteId: london,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    // 06:00 on the 11th in London.
    expect(saved.json()).toEqual({
      frequency: 'daily',
      format: 'xlsx',
      recipients: ['depot@example.com'],
      siteId: london,
      nextSendAt: '2026-03-11T06:00:00.000Z',
    });
    // Saved again without a site: the site stays.
    const kept = await admin.patch('/api/reports/schedule', {
      frequency: 'daily',
      recipients: ['depot@example.com'],
    });
    expect(kept.json()).toMatchObject({ siteId: london });
    expect((await admin.get('/api/reports/schedule')).json()).toMatchObject({ siteId: london });

    const schedules = t.modules.reports.scheduledEmails;
    t.clock.set(new Date('2026-03-11T05:00:00Z')); // 07:00 SAST, but 05:00 in London: not yet
    expect(await schedules.queueDue()).toBe(0);
    t.clock.set(new Date('2026-03-11T06:05:00Z'));
    expect(await schedules.queueDue()).toBe(1);
    const before = smtp.received.length;
    await runJobs(t);
    expect(smtp.received).toHaveLength(before + 1);
    const mail = smtp.received.at(-1)!;
    expect(mail.to).toEqual(['depot@example.com']);
    expect(mail.raw).toContain('Subject: Boomgate daily report: London depot, 2026-03-10');
    expect(mail.raw).toContain('(Europe/London), site London depot.');
    expect(mail.raw).toContain('Entries: 2 (granted 1, refused 1)');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(attachmentOf(mail.raw) as unknown as ArrayBuffer);
    const summary = new Map<string, unknown>();
    workbook.getWorksheet('Summary')!.eachRow((row) => {
      const [, figure, value] = row.values as unknown[];
      summary.set(String(figure), value);
    });
    expect(summary.get('Entries')).toBe(2);
    const [emailed] = await t.ownerQuery<{ details: Record<string, unknown> }>(
      `select details from audit_events where tenant_id = $1 and action = 'reports.emailed'`,
      [tenantId],
    );
    expect(emailed?.details).toMatchObject({
      from: '2026-03-10',
      to: '2026-03-10',
      siteId: london,
    });
  });

  it('attaches the report as a PDF when asked, holding the figures', async () => {
    await t.ownerQuery('delete from graphile_worker._private_jobs');
    t.clock.set(new Date('2026-03-10T08:00:00Z'));
    const admin = await t.registerTenant();
    const tenantId = admin.body.tenant.id;
    await entry(tenantId, '2026-03-09T22:10:00Z', true); // 00:10 SAST on the 10th
    await entry(tenantId, '2026-03-10T06:00:00Z', true);
    await entry(tenantId, '2026-03-10T08:00:00Z', false);
    const saved = await admin.patch('/api/reports/schedule', {
      frequency: 'daily',
      format: 'pdf',
      recipients: ['pdf@example.com'],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ format: 'pdf' });
    expect((await admin.get('/api/reports/schedule')).json()).toMatchObject({ format: 'pdf' });

    t.clock.set(new Date('2026-03-11T04:05:00Z'));
    expect(await t.modules.reports.scheduledEmails.queueDue()).toBeGreaterThanOrEqual(1);
    await runJobs(t);
    const mail = smtp.received.find((m) => m.to.includes('pdf@example.com'));
    expect(mail).toBeDefined();
    expect(mail!.raw).toContain(
      'Content-Type: application/pdf; name=report-2026-03-10-to-2026-03-10.pdf',
    );
    expect(mail!.raw).toContain('The attached PDF holds the figures');
    const pdf = attachmentOf(mail!.raw);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const { pageCount, texts } = readPdf(pdf);
    expect(pageCount).toBeGreaterThanOrEqual(1);
    const after = (label: string) => texts[texts.indexOf(label) + 1];
    expect(texts[0]).toBe('Boomgate daily report: 2026-03-10');
    expect(after('From')).toBe('2026-03-10');
    expect(after('Entries')).toBe('3');
    expect(after('Granted')).toBe('2');
    expect(after('Refused')).toBe('1');
    expect(after('Approval rate (%)')).toBe('66.7');
    expect(after('guard_refused')).toBe('1');
  });

  it("refuses another organization's site with 404", async () => {
    const admin = await t.registerTenant();
    const other = await t.registerTenant();
    const [theirs] = (await other.get('/api/sites')).json<{ id: string }[]>();
    const response = await admin.patch('/api/reports/schedule', {
      frequency: 'daily',
      recipients: ['a@example.com'],
      siteId: theirs!.id,
    });
    expect(response.statusCode, response.body).toBe(404);
    expect((await admin.get('/api/reports/schedule')).json()).toMatchObject({ frequency: 'off' });

    // Its own site, then back to every site (null).
    const [mine] = (await admin.get('/api/sites')).json<{ id: string }[]>();
    const body = { frequency: 'daily', recipients: ['a@example.com'] };
    const own = await admin.patch('/api/reports/schedule', { ...body, siteId: mine!.id });
    expect(own.json()).toMatchObject({ siteId: mine!.id });
    const all = await admin.patch('/api/reports/schedule', { ...body, siteId: null });
    expect(all.json()).toMatchObject({ siteId: null });
    expect((await admin.get('/api/reports/schedule')).json()).toMatchObject({ siteId: null });
  });

  it('covers Monday to Sunday for a weekly report', async () => {
    t.clock.set(new Date('2026-03-10T08:00:00Z'));
    const admin = await t.registerTenant();
    const saved = await admin.patch('/api/reports/schedule', {
      frequency: 'weekly',
      recipients: ['week@example.com'],
    });
    expect(saved.json()).toMatchObject({ nextSendAt: '2026-03-16T04:00:00.000Z' });
  });

  it('answers bad settings 400 and is for administrators only', async () => {
    const admin = await t.registerTenant();
    for (const body of [
      { frequency: 'daily', recipients: [] },
      { frequency: 'hourly', recipients: ['a@example.com'] },
      { frequency: 'daily', recipients: ['not an address'] },
      { frequency: 'daily', recipients: Array.from({ length: 21 }, (_, i) => `m${i}@example.com`) },
      { frequency: 'daily', format: 'csv', recipients: ['a@example.com'] },
      { frequency: 'daily', recipients: ['a@example.com'], siteId: 'not-a-uuid' },
    ]) {
      const response = await admin.patch('/api/reports/schedule', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json()).toMatchObject({ error: { code: 'INVALID' } });
    }
    const office = await t.createSignedInUser(admin, 'back_office');
    expect((await office.get('/api/reports/schedule')).statusCode).toBe(403);
    expect(
      (await office.patch('/api/reports/schedule', { frequency: 'off', recipients: [] }))
        .statusCode,
    ).toBe(403);
  });
});
