import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Role } from '@boomgate/contracts/roles';

import { ALL_ROLES, declaredRoutes } from '@/platform/access';
import { aJpegDataUrl } from '@/testing/images';
import { type Session, type TestApp, createTestApp } from '@/testing/test-app';
import { aTenantWithSecret, sendEntry } from '@/testing/webhooks';

import {
  ACCESS_MATRIX,
  type Caller,
  type MatrixEntry,
  type MatrixFixtures,
  type MatrixTenant,
  type ObjectCase,
} from './access-matrix';

type SignedIn = { session: Session; password: string };

const CALLERS: readonly Caller[] = ['anonymous', ...ALL_ROLES];

function expectedStatus(entry: MatrixEntry, caller: Caller, object: ObjectCase | 'none') {
  const isPublic = entry.access === 'public';
  if (caller === 'anonymous' && !isPublic) return 401;
  if (!isPublic && !(entry.access as readonly string[]).includes(caller)) return 403;
  if (object !== 'own' && object !== 'none') return entry.missing ?? 404;
  return (caller !== 'anonymous' && entry.allowedFor?.[caller]) || entry.allowed;
}

describe('the authorization matrix (SEC-13, SEC-14, SEC-16)', () => {
  let t: TestApp;
  let fx: MatrixFixtures;
  const callers = new Map<Role, SignedIn>();
  let tables: string[] = [];

  /** A signed-in user of the role in the own tenant (super_admin: promoted by the owner). */
  async function newCaller(role: Role): Promise<SignedIn> {
    const user = await t.createSignedInUser(
      fx.own.admin,
      role === 'super_admin' ? 'back_office' : role,
    );
    if (role === 'super_admin') {
      await t.ownerQuery(`update users set role = 'super_admin' where username = $1`, [
        user.username,
      ]);
    }
    return { session: user, password: user.password };
  }

  /** A digest of every row of every table: a refused call must leave it unchanged. */
  async function fingerprint(): Promise<Record<string, string>> {
    const rows = await t.ownerQuery<{ t: string; h: string }>(
      tables
        .map(
          (table) =>
            `select '${table}' as t, md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as h from "${table}" x`,
        )
        .join(' union all '),
    );
    return Object.fromEntries(rows.map((row) => [row.t, row.h]));
  }

  beforeAll(async () => {
    t = await createTestApp();
    const own = await aTenantWithSecret(t);
    const other = await aTenantWithSecret(t);
    const secrets = new Map<string, string>([
      [own.tenantId, own.secret],
      [other.tenantId, other.secret],
    ]);
    const asTenant = (x: typeof own): MatrixTenant => ({ id: x.tenantId, admin: x.admin });
    fx = {
      t,
      own: asTenant(own),
      other: asTenant(other),
      jpeg: await aJpegDataUrl(),
      loginUser: { username: '', password: '' },
      secrets,
      unique: (prefix) => t.unique(prefix),
      async freshSecret(tenant) {
        const response = await tenant.admin.post('/api/integrations/secret', {});
        const { secret } = response.json<{ secret: string }>();
        secrets.set(tenant.id, secret);
        return secret;
      },
      async incomingEntry(tenant) {
        const secret = await this.freshSecret(tenant);
        return sendEntry(t, { tenantId: tenant.id, secret }, { plateNumber: 'CA123456' });
      },
    };
    const loginUser = await t.createSignedInUser(fx.own.admin, 'security_guard');
    fx.loginUser = { username: loginUser.username, password: loginUser.password };
    for (const role of ALL_ROLES) callers.set(role, await newCaller(role));
    tables = (
      await t.ownerQuery<{ tablename: string }>(
        `select tablename from pg_tables where schemaname = 'public' order by 1`,
      )
    )
      .map((row) => row.tablename)
      // Rate-limit counters count calls whatever their answer, by design (an upload refused for
      // another tenant's object, a webhook whose signature fails): not a change the call made.
      .filter((table) => table !== 'rate_limit_counters');
  });
  afterAll(() => t.close());

  it('has an entry for every API route, a route for every entry, and the declared roles', () => {
    const registered = new Map(
      declaredRoutes(t.app).map((route) => [`${route.method} ${route.url}`, route.access]),
    );
    const missing = [...registered.keys()].filter((key) => !(key in ACCESS_MATRIX));
    const stale = Object.keys(ACCESS_MATRIX).filter((key) => !registered.has(key));
    const mismatched = Object.entries(ACCESS_MATRIX)
      .filter(([key]) => registered.has(key))
      .filter(([key, entry]) => {
        const declared = registered.get(key);
        const roles = declared && 'roles' in declared ? [...declared.roles].sort() : 'public';
        const listed = entry.access === 'public' ? 'public' : [...entry.access].sort();
        return JSON.stringify(roles) !== JSON.stringify(listed);
      })
      .map(([key]) => key);

    expect({ missing, stale, mismatched }).toEqual({ missing: [], stale: [], mismatched: [] });
    expect(registered.size).toBeGreaterThan(40);
  });

  const routes = Object.entries(ACCESS_MATRIX);
  it.each(routes)('%s answers every role and object as the matrix says', async (key, entry) => {
    const [method, urlPattern] = key.split(' ') as [string, string];
    const results: string[] = [];
    const problems: string[] = [];
    const cases: readonly (ObjectCase | 'none')[] = entry.object
      ? (entry.objects ?? ['own', 'other', 'random'])
      : ['none'];

    for (const caller of CALLERS) {
      const missingBodies = new Map<ObjectCase, { status: number; body: string }>();
      for (const objectCase of cases) {
        const signedIn =
          caller === 'anonymous'
            ? undefined
            : entry.caller === 'fresh'
              ? await newCaller(caller)
              : callers.get(caller);
        let object: string | undefined;
        if (objectCase === 'own') object = await entry.object?.(fx, fx.own);
        if (objectCase === 'other') object = await entry.object?.(fx, fx.other);
        if (objectCase === 'random')
          object = entry.randomObject?.() ?? globalThis.crypto.randomUUID();
        const built = await entry.request(fx, object, { password: signedIn?.password ?? 'x' });
        const expected = expectedStatus(entry, caller, objectCase);
        const isRefusal = expected === 401 || expected === 403 || objectCase === 'other';
        // SEC-32: a GET changes nothing but the audit trail (reads of personal data are audited).
        const isRead = method === 'GET';
        const before = isRefusal || isRead ? await fingerprint() : undefined;

        const response: LightMyRequestResponse = await t.inject({
          method: method,
          url: built.url,
          payload: built.payload,
          headers: {
            ...(signedIn ? { cookie: signedIn.session.cookie } : {}),
            ...built.headers,
          },
        });

        const cell = `${caller} × ${objectCase}`;
        results.push(`${cell}: ${response.statusCode}`);
        if (response.statusCode !== expected) {
          problems.push(
            `${cell}: expected ${expected}, got ${response.statusCode} ${response.body}`,
          );
        }
        if (before) {
          const after = await fingerprint();
          const changed = Object.keys(after)
            .filter((table) => after[table] !== before[table])
            .filter((table) => isRefusal || table !== 'audit_events')
            .filter((table) => isRefusal || !(entry.readWrites ?? []).includes(table));
          if (changed.length > 0) {
            problems.push(
              `${cell}: ${isRefusal ? 'refused call' : 'GET'} changed ${changed.join(', ')}`,
            );
          }
        }
        if (objectCase === 'other' || objectCase === 'random') {
          const body = object ? response.body.split(object).join('<object>') : response.body;
          missingBodies.set(objectCase, { status: response.statusCode, body });
        }
      }
      const other = missingBodies.get('other');
      const random = missingBodies.get('random');
      if (other && random && JSON.stringify(other) !== JSON.stringify(random)) {
        problems.push(
          `${caller}: another tenant's object answers unlike a missing one: ${JSON.stringify(other)} vs ${JSON.stringify(random)}`,
        );
      }
    }

    expect(problems, `${urlPattern}\n${results.join('\n')}`).toEqual([]);
  });
});
