import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  ALERT_UNREAD_COUNT_HEADER,
  type Alert,
  AlertListSchema,
  AlertSettingsSchema,
  DEFAULT_ALERT_SETTINGS,
} from '@boomgate/contracts/alerts';
import { NEXT_CURSOR_HEADER } from '@boomgate/contracts/primitives';

import type { Session, TestApp } from '@/testing/test-app';
import { createTestApp } from '@/testing/test-app';
import { aCompletion, aTenantWithSecret, runJobs, sendEntry } from '@/testing/webhooks';

const refuse = (session: Session, plateNumber: string) =>
  session.post('/api/auto-gate/grant-entry', {
    plateNumber,
    entryGranted: false,
    refusalReason: 'guard_refused',
  });

/** A browser's PushSubscription.toJSON(): a P-256 key and a 16-byte secret, base64url. */
const aSubscription = (endpoint: string) => ({
  endpoint,
  expirationTime: null,
  keys: {
    p256dh: Buffer.alloc(65, 4).toString('base64url'),
    auth: Buffer.alloc(16, 7).toString('base64url'),
  },
});

describe('alerts API', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const listAlerts = async (session: Session, query = '') => {
    const response = await session.get(`/api/alerts${query}`);
    expect(response.statusCode).toBe(200);
    return {
      alerts: AlertListSchema.parse(response.json()),
      unread: Number(response.headers[ALERT_UNREAD_COUNT_HEADER]),
      next: response.headers[NEXT_CURSOR_HEADER] as string | undefined,
    };
  };

  it('raises entry_refused when grant-entry refuses, and a person acknowledges it', async () => {
    const admin = await t.registerTenant();
    const guard = await t.createSignedInUser(admin, 'security_guard');

    const refused = await refuse(guard, 'CA123456');
    expect(refused.statusCode).toBe(201);
    const granted = await guard.post('/api/auto-gate/grant-entry', {
      plateNumber: 'CA654321',
      entryGranted: true,
    });
    expect(granted.statusCode).toBe(201);

    const { alerts, unread } = await listAlerts(admin);
    expect(alerts).toHaveLength(1);
    expect(unread).toBe(1);
    const [alert] = alerts as [Alert];
    expect(alert).toMatchObject({
      kind: 'entry_refused',
      severity: 'warning',
      state: 'open',
      entryId: refused.json<{ id: string }>().id,
      plateNumber: 'CA123456',
      message: 'Entry refused for CA123456 (guard refused).',
      acknowledgedAt: null,
    });

    const acknowledged = await admin.post(`/api/alerts/${alert.id}/acknowledge`);
    expect(acknowledged.statusCode).toBe(200);
    expect(acknowledged.json()).toMatchObject({
      state: 'acknowledged',
      acknowledgedBy: admin.body.user.id,
      acknowledgedByName: 'Thandi Admin',
      acknowledgedAt: t.clock.now().toISOString(),
    });
    const audit = await t.ownerQuery<{ actor_user_id: string }>(
      `select actor_user_id from audit_events where action = 'alert.acknowledged' and target_id = $1`,
      [alert.id],
    );
    expect(audit).toEqual([{ actor_user_id: admin.body.user.id }]);

    // Acknowledging again answers the alert as it is: the first person stays on record.
    const backOffice = await t.createSignedInUser(admin, 'back_office');
    const again = await backOffice.post(`/api/alerts/${alert.id}/acknowledge`);
    expect(again.json()).toMatchObject({ acknowledgedBy: admin.body.user.id });

    expect((await listAlerts(admin, '?state=open')).alerts).toEqual([]);
    expect((await listAlerts(admin, '?state=acknowledged')).alerts.map((a) => a.id)).toEqual([
      alert.id,
    ]);
    expect((await listAlerts(admin)).unread).toBe(0);
  });

  it('pages newest first with a keyset cursor', async () => {
    const admin = await t.registerTenant();
    for (const plate of ['GP11AA', 'GP22BB', 'GP33CC']) {
      expect((await refuse(admin, plate)).statusCode).toBe(201);
      t.clock.advanceMs(1000);
    }
    const first = await listAlerts(admin, '?limit=2');
    expect(first.alerts.map((a) => a.plateNumber)).toEqual(['GP33CC', 'GP22BB']);
    expect(first.next).toBeDefined();
    const second = await listAlerts(admin, `?limit=2&cursor=${first.next ?? ''}`);
    expect(second.alerts.map((a) => a.plateNumber)).toEqual(['GP11AA']);
    expect(second.next).toBeUndefined();
    expect((await admin.get('/api/alerts?cursor=not-ours')).statusCode).toBe(400);
    expect((await admin.get('/api/alerts?state=closed')).statusCode).toBe(400);
  });

  it('never shows or acknowledges another tenant’s alert', async () => {
    const own = await t.registerTenant();
    const other = await t.registerTenant();
    await refuse(own, 'NW99ZZ');
    const [alert] = (await listAlerts(own)).alerts as [Alert];

    expect((await listAlerts(other)).alerts).toEqual([]);
    expect((await listAlerts(other)).unread).toBe(0);
    const foreign = await other.post(`/api/alerts/${alert.id}/acknowledge`);
    const missing = await other.post(`/api/alerts/${crypto.randomUUID()}/acknowledge`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).toBe(missing.body);
    expect((await listAlerts(own, '?state=open')).alerts).toHaveLength(1);
  });

  it('keeps guards out of the alerts, and back office out of routing and push', async () => {
    const admin = await t.registerTenant();
    const guard = await t.createSignedInUser(admin, 'security_guard');
    const backOffice = await t.createSignedInUser(admin, 'back_office');
    expect((await guard.get('/api/alerts')).statusCode).toBe(403);
    expect((await backOffice.get('/api/alerts')).statusCode).toBe(200);
    expect((await backOffice.get('/api/settings/alerts')).statusCode).toBe(403);
    expect(
      (
        await backOffice.post(
          '/api/alerts/push-subscriptions',
          aSubscription('https://push.example.com/a'),
        )
      ).statusCode,
    ).toBe(403);
  });

  it('reads and changes the routing per kind and site, with quiet hours (audited)', async () => {
    const admin = await t.registerTenant();
    const initial = await admin.get('/api/settings/alerts');
    expect(initial.json()).toEqual(DEFAULT_ALERT_SETTINGS);

    const [{ id: site }] = (await admin.get('/api/sites')).json<[{ id: string }]>();
    const patched = await admin.patch('/api/settings/alerts', {
      routes: [
        { kind: 'watchlist_hit', siteId: null, channels: ['email', 'push', 'webhook'] },
        { kind: 'overstay', siteId: site, channels: ['email'], minSeverity: 'warning' },
      ],
      emailRecipients: ['control-room@example.com'],
      quietHours: { start: '22:00', end: '06:00', minSeverity: 'critical' },
    });
    expect(patched.statusCode).toBe(200);
    const saved = AlertSettingsSchema.parse(patched.json());
    expect(saved.routes).toEqual([
      {
        kind: 'watchlist_hit',
        siteId: null,
        channels: ['email', 'push', 'webhook'],
        minSeverity: 'info',
      },
      { kind: 'overstay', siteId: site, channels: ['email'], minSeverity: 'warning' },
    ]);
    expect(saved.repeatEveryMinutes).toBe(DEFAULT_ALERT_SETTINGS.repeatEveryMinutes);
    expect((await admin.get('/api/settings/alerts')).json()).toEqual(saved);

    const bad = await admin.patch('/api/settings/alerts', {
      quietHours: { start: '25:00', end: '06:00', minSeverity: 'critical' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toContain('Enter a time as HH:MM (24-hour)');
    // A site the tenant does not have (unknown, or another tenant's): 400, nothing saved.
    const other = await t.registerTenant();
    const [{ id: theirSite }] = (await other.get('/api/sites')).json<[{ id: string }]>();
    for (const siteId of [crypto.randomUUID(), theirSite]) {
      const ghost = await admin.patch('/api/settings/alerts', {
        routes: [{ kind: 'overstay', siteId, channels: ['email'] }],
      });
      expect(ghost.statusCode).toBe(400);
      expect(ghost.json().error.message).toBe(
        'An alert rule or quiet hours name a site that does not exist.',
      );
      const quiet = await admin.patch('/api/settings/alerts', {
        siteQuietHours: [{ siteId, start: '22:00', end: '06:00', minSeverity: 'critical' }],
      });
      expect(quiet.statusCode).toBe(400);
    }
    expect((await admin.get('/api/settings/alerts')).json()).toEqual(saved);
    const unknownKind = await admin.patch('/api/settings/alerts', {
      routes: [{ kind: 'fire', siteId: null, channels: [] }],
    });
    expect(unknownKind.statusCode).toBe(400);

    const audit = await t.ownerQuery(
      `select 1 from audit_events where action = 'alert-settings.updated' and tenant_id = $1`,
      [admin.body.tenant.id],
    );
    expect(audit).toHaveLength(1);
  });

  it('stores, replaces and removes a browser’s push subscription', async () => {
    const admin = await t.registerTenant();
    const key = await admin.get('/api/alerts/push-key');
    expect(key.statusCode).toBe(200);
    // An uncompressed P-256 point, 65 bytes, the same on every call.
    expect(Buffer.from(key.json<{ publicKey: string }>().publicKey, 'base64url')).toHaveLength(65);
    expect((await admin.get('/api/alerts/push-key')).json()).toEqual(key.json());

    const endpoint = 'https://push.example.com/send/abc';
    expect(
      (await admin.post('/api/alerts/push-subscriptions', aSubscription(endpoint))).statusCode,
    ).toBe(201);
    expect(
      (await admin.post('/api/alerts/push-subscriptions', aSubscription(endpoint))).statusCode,
    ).toBe(201);
    const stored = () =>
      t.ownerQuery('select endpoint from alert_push_subscriptions where tenant_id = $1', [
        admin.body.tenant.id,
      ]);
    expect(await stored()).toEqual([{ endpoint }]);

    const bad = await admin.post('/api/alerts/push-subscriptions', {
      ...aSubscription(endpoint),
      keys: { p256dh: 'short', auth: 'x' },
    });
    expect(bad.statusCode).toBe(400);

    const removed = await admin.delete('/api/alerts/push-subscriptions', {
      payload: { endpoint },
    });
    expect(removed.statusCode).toBe(204);
    expect(await stored()).toEqual([]);
    expect(
      (await admin.delete('/api/alerts/push-subscriptions', { payload: { endpoint } })).statusCode,
    ).toBe(404);
  });

  it('raises feed_unprocessed once for an incoming entry pending past the limit', async () => {
    const tenant = await aTenantWithSecret(t);
    await tenant.admin.patch('/api/settings/alerts', { feedUnprocessedMinutes: 20 });
    const waiting = await sendEntry(t, tenant, { plateNumber: 'FS44WW' });
    const done = await sendEntry(t, tenant, { plateNumber: 'FS55XX' });
    expect(
      (await tenant.admin.post(`/api/webhook/process-request/${done}`, aCompletion())).statusCode,
    ).toBe(200);

    t.clock.advanceMs(19 * 60_000);
    await t.modules.alerts.service.scanUnprocessedFeed();
    expect((await listAlerts(tenant.admin)).alerts).toEqual([]);

    t.clock.advanceMs(2 * 60_000);
    await t.modules.alerts.service.scanUnprocessedFeed();
    await t.modules.alerts.service.scanUnprocessedFeed();
    const { alerts } = await listAlerts(tenant.admin);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({
      kind: 'feed_unprocessed',
      plateNumber: 'FS44WW',
      message: 'An incoming entry for FS44WW has waited 21 minutes without being processed.',
    });
    expect(waiting).toBeDefined();
  });

  it('raises callback_failed when a callback is dead-lettered', async () => {
    // No callback URL: the delivery dead-letters on its first attempt, with that reason.
    const tenant = await aTenantWithSecret(t);
    const id = await sendEntry(t, tenant, { plateNumber: 'EC12AB' });
    await tenant.admin.post(`/api/webhook/process-request/${id}`, aCompletion());
    await runJobs(t);

    const { alerts } = await listAlerts(tenant.admin);
    expect(alerts.map((a) => [a.kind, a.message])).toEqual([
      [
        'callback_failed',
        'A callback to your system failed after every retry: No callback URL is configured.',
      ],
    ]);
  });

  it('repeats an unacknowledged critical alert until someone acknowledges it', async () => {
    const admin = await t.registerTenant();
    const tenantId = admin.body.tenant.id;
    await admin.patch('/api/settings/alerts', { repeatEveryMinutes: 10 });
    const critical = await t.modules.alerts.service.raise({
      tenantId,
      kind: 'watchlist_hit',
      plateNumber: 'KZN777',
    });
    const warning = await t.modules.alerts.service.raise({ tenantId, kind: 'overstay' });
    const notifications = async (id: string | undefined) =>
      (
        await t.ownerQuery<{ notifications: number }>(
          'select notifications from alerts where id = $1',
          [id],
        )
      )[0]?.notifications;

    t.clock.advanceMs(9 * 60_000);
    await t.modules.alerts.service.repeatDue();
    expect(await notifications(critical?.id)).toBe(1);

    t.clock.advanceMs(2 * 60_000);
    await t.modules.alerts.service.repeatDue();
    expect(await notifications(critical?.id)).toBe(2);
    expect(await notifications(warning?.id)).toBe(1);
    const repeats = await t.ownerQuery(
      `select 1 from graphile_worker._private_jobs j
         join graphile_worker._private_tasks k on k.id = j.task_id
       where k.identifier = 'alerts.dispatch' and j.payload->>'alertId' = $1
         and (j.payload->>'repeat')::boolean`,
      [critical?.id],
    );
    expect(repeats).toHaveLength(1);

    await admin.post(`/api/alerts/${critical?.id}/acknowledge`);
    t.clock.advanceMs(11 * 60_000);
    await t.modules.alerts.service.repeatDue();
    expect(await notifications(critical?.id)).toBe(2);
  });

  it('raises overstay once per visit past its site’s limit, only for that tenant', async () => {
    const admin = await t.registerTenant();
    const other = await t.registerTenant();
    const [site] = (await admin.get('/api/sites')).json<{ id: string }[]>();
    expect((await admin.patch(`/api/sites/${site!.id}`, { overstayMinutes: 60 })).statusCode).toBe(
      200,
    );
    // Visits are timed by the server, and the test clock does not run past the session's idle
    // limit: each visit is moved back to when the vehicle came in.
    const minutesAgo = (minutes: number) =>
      new Date(t.clock.now().getTime() - minutes * 60_000).toISOString();
    const grant = async (plateNumber: string, minutes: number) => {
      const response = await admin.post('/api/auto-gate/grant-entry', {
        plateNumber,
        entryGranted: true,
      });
      await t.ownerQuery('update visits set entered_at = $1 where entry_log_id = $2', [
        minutesAgo(minutes),
        response.json<{ id: string }>().id,
      ]);
      return response;
    };
    const staying = await grant('OV11AA', 66);
    const leaving = await grant('OV22BB', 70);
    const late = await grant('OV33CC', 50); // under the limit
    const forgotten = await grant('OV44DD', 60 + 25 * 60); // over it for more than a day
    for (const response of [staying, leaving, late, forgotten]) {
      expect(response.statusCode, response.body).toBe(201);
    }
    expect(
      (await admin.post(`/api/entry-logs/${leaving.json().id}/exit`, {})).statusCode,
    ).toBeLessThan(300);

    expect(await t.modules.alerts.service.scanOverstays()).toBe(1);
    expect(await t.modules.alerts.service.scanOverstays()).toBe(0);
    const { alerts } = await listAlerts(admin);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({
      kind: 'overstay',
      severity: 'warning',
      siteId: site!.id,
      plateNumber: 'OV11AA',
      entryId: staying.json().id,
      message: "OV11AA has been on site for 1 h 6 min, longer than the site's limit of 1 h.",
    });
    expect((await listAlerts(other)).alerts).toEqual([]);
    // The job the worker runs every minute is the same scan.
    const jobs = t.modules.alerts.jobs.map((job) => job.name);
    expect(jobs).toContain('alerts.overstay');
    expect(t.modules.alerts.schedules.map((s) => s.job.name)).toContain('alerts.overstay');
  });

  it('reads quiet hours on each site’s clock, with a site’s own quiet hours', async () => {
    const admin = await t.registerTenant();
    const tenantId = admin.body.tenant.id;
    expect(
      (await admin.post('/api/alerts/push-subscriptions', aSubscription('https://push.example/q')))
        .statusCode,
    ).toBeLessThan(300);
    const tokyo = await admin.post('/api/sites', { name: 'Tokyo depot', timezone: 'Asia/Tokyo' });
    expect(tokyo.statusCode).toBe(201);
    const hourIn = (timeZone: string) =>
      Number(
        new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', hourCycle: 'h23' }).format(
          t.clock.now(),
        ),
      );
    const pad = (hour: number) => `${String(hour % 24).padStart(2, '0')}:00`;
    const thisHourIn = (timeZone: string) => ({
      start: pad(hourIn(timeZone)),
      end: pad(hourIn(timeZone) + 1),
      minSeverity: 'critical' as const,
    });
    const channelsOf = async (siteId: string | null) => {
      const alert = await t.modules.alerts.service.raise({ tenantId, kind: 'overstay', siteId });
      return t.modules.alerts.service.dispatch(tenantId, alert!.id, false);
    };

    // Quiet now in Johannesburg (the default site), not in Tokyo (seven hours ahead).
    await admin.patch('/api/settings/alerts', { quietHours: thisHourIn('Africa/Johannesburg') });
    expect(await channelsOf(null)).toEqual([]);
    expect(await channelsOf(tokyo.json().id)).toEqual(['push']);

    // Tokyo's own quiet hours, on Tokyo's clock.
    const own = await admin.patch('/api/settings/alerts', {
      siteQuietHours: [{ siteId: tokyo.json().id, ...thisHourIn('Asia/Tokyo') }],
    });
    expect(own.statusCode).toBe(200);
    expect(AlertSettingsSchema.parse(own.json()).siteQuietHours).toHaveLength(1);
    expect(await channelsOf(tokyo.json().id)).toEqual([]);

    const twice = await admin.patch('/api/settings/alerts', {
      siteQuietHours: [
        { siteId: tokyo.json().id, ...thisHourIn('Asia/Tokyo') },
        { siteId: tokyo.json().id, start: '01:00', end: '02:00', minSeverity: 'critical' },
      ],
    });
    expect(twice.statusCode).toBe(400);
  });
});
