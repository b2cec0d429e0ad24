import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type TestApp, createTestApp } from '@/testing/test-app';

import { APP_ROLE } from './database-bootstrap';
import { type Tx, createDatabase } from './db';

describe('tenant isolation in the database', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /**
   * Every object the role owns in this database, by kind: relations of every kind (tables, views,
   * materialized views, sequences, indexes, composite types), functions and procedures, types
   * and domains, schemas, and through pg_shdepend anything else it owns here or cluster-wide
   * (the database itself, extensions, operators, publications, large objects…).
   */
  const ownedBy = async (role: string) =>
    (
      await t.database.db.execute<{ object: string }>(sql`
        with r as (select oid from pg_roles where rolname = ${role})
        select 'relation ' || c.relkind::text || ' ' || c.oid::regclass::text as object
          from pg_class c where c.relowner = (select oid from r)
        union all
        select 'function ' || p.oid::regprocedure::text from pg_proc p where p.proowner = (select oid from r)
        union all
        select 'type ' || ty.oid::regtype::text from pg_type ty where ty.typowner = (select oid from r)
        union all
        select 'schema ' || n.nspname from pg_namespace n where n.nspowner = (select oid from r)
        union all
        select 'owned ' || d.classid::regclass::text || ' ' || d.objid::text from pg_shdepend d
          where d.refclassid = 'pg_authid'::regclass and d.refobjid = (select oid from r)
            and d.deptype = 'o'
            and d.dbid in (0, (select oid from pg_database where datname = current_database()))
        order by 1`)
    ).rows.map((row) => row.object);

  it('connects as a role that is not superuser, cannot bypass RLS and owns nothing', async () => {
    const [role] = (
      await t.database.db.execute<{ rolsuper: boolean; rolbypassrls: boolean }>(sql`
        select rolsuper, rolbypassrls from pg_roles where rolname = current_user`)
    ).rows;

    expect(role).toEqual({ rolsuper: false, rolbypassrls: false });
    expect(await ownedBy(APP_ROLE)).toEqual([]);
  });

  it('finds owned objects of every kind it looks for (the ownership check is not vacuous)', async () => {
    const [owner] = await t.ownerQuery<{ name: string }>(
      "select tableowner as name from pg_tables where tablename = 'entry_logs'",
    );
    const ownersObjects = await ownedBy(owner?.name ?? '');
    const jobsObjects = await ownedBy('boomgate_jobs');
    const kinds = (objects: string[]) => [
      ...new Set(objects.map((o) => o.split(' ').slice(0, 2).join(' '))),
    ];

    // Tables, indexes, sequences and views; the row types tables bring; the job role's functions.
    expect(kinds(ownersObjects)).toEqual(
      expect.arrayContaining([
        'relation r',
        'relation i',
        'relation S',
        'relation v',
        'type entry_logs',
      ]),
    );
    expect(jobsObjects).toContain(
      'function retention_due_document_images(timestamp with time zone,integer,integer,integer)',
    );
    expect(jobsObjects.some((o) => o.startsWith('owned pg_proc '))).toBe(true);
  });

  it('has forced row-level security with USING and WITH CHECK on every table with tenant_id', async () => {
    const offenders = await t.ownerQuery<{ table: string }>(`
      select c.relname as table
      from pg_class c
      join pg_namespace n on n.oid = c.relnamespace and n.nspname = 'public'
      join pg_attribute a on a.attrelid = c.oid and a.attname = 'tenant_id' and not a.attisdropped
      where c.relkind = 'r'
        and (not c.relrowsecurity or not c.relforcerowsecurity
             or not exists (select 1 from pg_policy p where p.polrelid = c.oid
                            and p.polqual is not null and p.polwithcheck is not null))`);

    expect(offenders).toEqual([]);
  });

  it('includes tenant_id in every primary key, unique constraint or index and foreign key of a tenant table', async () => {
    // Documented exceptions, each global on purpose.
    const allowlist: Record<string, string> = {
      users_username_unique:
        'usernames are global: sign-in takes only a username, so it must name one user (ADR 0001)',
    };
    const offenders = await t.ownerQuery<{ table: string; name: string; kind: string }>(`
      with tenant_tables as (
        select c.oid, c.relname, a.attnum
        from pg_class c
        join pg_namespace n on n.oid = c.relnamespace and n.nspname = 'public'
        join pg_attribute a on a.attrelid = c.oid and a.attname = 'tenant_id' and not a.attisdropped
        where c.relkind in ('r', 'p'))
      select tt.relname as table, con.conname as name, con.contype::text as kind
      from tenant_tables tt
      join pg_constraint con on con.conrelid = tt.oid and con.contype in ('p', 'u', 'f')
      where not tt.attnum = any(con.conkey)
      union all
      select tt.relname, ic.relname, 'unique index'
      from tenant_tables tt
      join pg_index i on i.indrelid = tt.oid and i.indisunique
      join pg_class ic on ic.oid = i.indexrelid
      where not tt.attnum = any(i.indkey::int2[])
      order by 1, 2`);

    expect(offenders.filter((o) => !(o.name in allowlist))).toEqual([]);
    // An allowlist entry that no longer matches anything must be removed.
    expect([...new Set(offenders.map((o) => o.name))].sort()).toEqual(
      Object.keys(allowlist).sort(),
    );
  });

  it('has no view that runs with its owner’s rights and no LEAKPROOF function of ours', async () => {
    const views = await t.ownerQuery<{ name: string }>(`
      select c.relname as name from pg_class c
      join pg_namespace n on n.oid = c.relnamespace and n.nspname = 'public'
      where c.relkind in ('v', 'm')
        and not coalesce(c.reloptions @> array['security_invoker=true'], false)`);
    const leakproof = await t.ownerQuery<{ name: string }>(`
      select p.proname as name from pg_proc p
      join pg_namespace n on n.oid = p.pronamespace and n.nspname = 'public'
      where p.proleakproof`);

    expect(views).toEqual([]);
    expect(leakproof).toEqual([]);
  });

  it('allows only the allowlisted SECURITY DEFINER functions', async () => {
    const definers = await t.ownerQuery<{ proname: string }>(`
      select p.proname from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = 'public' and p.prosecdef order by 1`);

    expect(definers.map((d) => d.proname)).toEqual([
      'alerts_due_feed_unprocessed',
      'alerts_due_overstay_tenants',
      'alerts_due_repeat',
      'anpr_find_camera',
      'anpr_offline_cameras',
      'approved_vehicles_due_biometric_purge',
      'audit_events_unsealed_tenants',
      'auth_find_login',
      'auth_resolve_session',
      'barrier_find_agent',
      'barrier_offline_agents',
      'captures_due_purge',
      'captures_unsealed_tenants',
      'drivers_due_biometric_purge',
      'drivers_licences_unsealed_tenants',
      'drivers_unsealed_tenants',
      'entry_logs_unmasked_warning_tenants',
      'entry_logs_unsealed_tenants',
      'identity_documents_unsealed_tenants',
      'incoming_requests_unmasked_warning_tenants',
      'incoming_requests_unsealed_tenants',
      'induction_assignments_due_photo_purge',
      'induction_assignments_unsealed_tenants',
      'passports_unsealed_tenants',
      'reading_corrections_unsealed_tenants',
      'reports_due_schedules',
      'retention_due_document_images',
      'safety_video_uploads_abandoned',
      'site_sync_find_token',
      'site_sync_uploads_due_tenants',
      'tenant_keys_to_rewrap',
      'visits_unsealed_tenants',
      'watchlist_unsealed_tenants',
      'webhook_deliveries_unsealed_tenants',
      'webhooks_due_deliveries',
    ]);
  });

  it('shows no rows and refuses writes when no tenant is set', async () => {
    const admin = await t.registerTenant();

    const visible = await t.database.withoutTenant((tx) => tx.execute(sql`select * from users`));
    const insert = t.database.withoutTenant((tx) =>
      tx.execute(sql`insert into tenants (id, name) values (${crypto.randomUUID()}, 'Rogue')`),
    );

    expect(admin.body.tenant.id).toBeDefined();
    expect(visible.rows).toHaveLength(0);
    await expect(insert).rejects.toMatchObject({ cause: { code: '42501' } });
  });

  it("cannot read, change or add rows of another tenant inside a tenant's transaction", async () => {
    const acme = await t.registerTenant();
    const other = await t.registerTenant();

    const result = await t.database.withTenant(acme.body.tenant.id, async (tx) => {
      const seen = await tx.execute(
        sql`select id from users where tenant_id = ${other.body.tenant.id}`,
      );
      const updated = await tx.execute(
        sql`update users set full_name = 'x' where tenant_id = ${other.body.tenant.id}`,
      );
      const deleted = await tx.execute(
        sql`delete from sessions where tenant_id = ${other.body.tenant.id}`,
      );
      return { seen: seen.rows.length, updated: updated.rowCount, deleted: deleted.rowCount };
    });
    const insert = t.database.withTenant(acme.body.tenant.id, (tx) =>
      tx.execute(
        sql`insert into audit_events (tenant_id, id, action) values (${other.body.tenant.id}, ${crypto.randomUUID()}, 'x')`,
      ),
    );

    expect(result).toEqual({ seen: 0, updated: 0, deleted: 0 });
    await expect(insert).rejects.toMatchObject({ cause: { code: '42501' } });
  });

  it('keeps audit events append-only for the API role', async () => {
    const admin = await t.registerTenant();

    const update = t.database.withTenant(admin.body.tenant.id, (tx) =>
      tx.execute(sql`update audit_events set action = 'x'`),
    );
    const remove = t.database.withTenant(admin.body.tenant.id, (tx) =>
      tx.execute(sql`delete from audit_events`),
    );

    await expect(update).rejects.toMatchObject({ cause: { code: '42501' } });
    await expect(remove).rejects.toMatchObject({ cause: { code: '42501' } });
  });

  it('refuses to change or remove audit events even for the schema owner (trigger)', async () => {
    const admin = await t.registerTenant();
    const tenantId = admin.body.tenant.id;
    const attempts = [
      `update audit_events set action = 'x' where tenant_id = '${tenantId}'`,
      `delete from audit_events where tenant_id = '${tenantId}'`,
      'truncate audit_events',
    ].map((statement) =>
      t.ownerQuery(statement).then(
        () => 'allowed',
        (e: Error) => e.message,
      ),
    );

    expect(await Promise.all(attempts)).toEqual(Array(3).fill('audit_events is append-only'));
    const kept = await t.ownerQuery('select 1 from audit_events where tenant_id = $1', [tenantId]);
    expect(kept.length).toBeGreaterThan(0);
  });

  it('lets the API role erase personal fields of an entry, never rewrite them', async () => {
    const admin = await t.registerTenant();
    const tenantId = admin.body.tenant.id;
    const entry = await admin.post('/api/auto-gate/grant-entry', {
      plateNumber: 'CA100200',
      driverName: 'Sipho',
      driverIdNumber: '8001015009087',
    });
    const id = entry.json<{ id: string }>().id;
    const run = (statement: ReturnType<typeof sql>) =>
      t.database
        .withTenant(tenantId, (tx) => tx.execute(statement))
        .then(
          () => 'allowed',
          (e: { cause?: { code?: string } }) => e.cause?.code,
        );

    const rewrite = await run(
      sql`update entry_logs set driver_name = 'Someone else' where id = ${id}`,
    );
    const otherColumn = await run(sql`update entry_logs set plate_number = 'X' where id = ${id}`);
    const erase = await run(
      sql`update entry_logs set driver_name = null, driver_id_number = null where id = ${id}`,
    );
    const remove = await run(sql`delete from entry_logs where id = ${id}`);

    expect({ rewrite, otherColumn, erase, remove }).toEqual({
      rewrite: '42501',
      otherColumn: '42501',
      erase: 'allowed',
      remove: '42501',
    });
  });

  it('does not carry a tenant from one transaction into the next on the same connection', async () => {
    const admin = await t.registerTenant();
    const url = (t.database.pool as unknown as { options: { connectionString: string } }).options
      .connectionString;
    const single = createDatabase({ url, poolMax: 1 });
    try {
      await single.withTenant(admin.body.tenant.id, (tx) => tx.execute(sql`select 1`));
      const client = await single.pool.connect();
      try {
        const setting = await client.query<{ tenant: string | null }>(
          `select nullif(current_setting('app.tenant_id', true), '') as tenant`,
        );
        const rows = await client.query('select * from users');

        expect(setting.rows[0]?.tenant ?? null).toBeNull();
        expect(rows.rowCount).toBe(0);
      } finally {
        client.release();
      }
    } finally {
      await single.close();
    }
  });

  describe('withTenant on one pooled connection', () => {
    let tenantId: string;
    let single: ReturnType<typeof createDatabase>;
    beforeAll(async () => {
      tenantId = (await t.registerTenant()).body.tenant.id;
      const url = (t.database.pool as unknown as { options: { connectionString: string } }).options
        .connectionString;
      single = createDatabase({ url, poolMax: 1 });
    });
    afterAll(() => single.close());

    const nameNow = async () =>
      (
        await single.withTenant(tenantId, (tx) =>
          tx.execute<{ full_name: string | null }>(sql`select full_name from users limit 1`),
        )
      ).rows[0]?.full_name;
    const rename = (tx: Tx, name: string) =>
      tx.execute(sql`update users set full_name = ${name} where tenant_id = ${tenantId}`);

    it('rolls back failed work and leaves no tenant and no transaction on the connection', async () => {
      const failed = single.withTenant(tenantId, async (tx) => {
        await rename(tx, 'Changed');
        throw new Error('work failed');
      });
      await expect(failed).rejects.toThrow('work failed');

      const client = await single.pool.connect();
      try {
        const state = await client.query<{ tenant: string | null; users: number }>(
          `select nullif(current_setting('app.tenant_id', true), '') as tenant,
                  (select count(*)::int from users) as users`,
        );
        expect(state.rows[0]).toEqual({ tenant: null, users: 0 });
      } finally {
        client.release();
      }
      expect(await nameNow()).not.toBe('Changed');
    });

    it('never reports as saved a transaction whose statement failed and was caught', async () => {
      const swallowed = single.withTenant(tenantId, async (tx) => {
        await rename(tx, 'Swallowed');
        await tx.execute(sql`select 1 / 0`).catch(() => undefined);
      });

      await expect(swallowed).rejects.toThrow('The transaction was rolled back');
      expect(await nameNow()).not.toBe('Swallowed');
    });

    it('drops a connection that died inside the transaction, and the next one works', async () => {
      const died = single.withTenant(tenantId, async (tx) => {
        await tx.execute(sql`set local idle_in_transaction_session_timeout = '50ms'`);
        await new Promise((resolve) => setTimeout(resolve, 300));
      });

      await expect(died).rejects.toThrow();
      expect(await nameNow()).toEqual(expect.any(String));
    });

    it('nests transactions as savepoints: an inner failure undoes only the inner work', async () => {
      await single.withTenant(tenantId, async (tx) => {
        await rename(tx, 'Outer');
        await tx
          .transaction(async (savepoint) => {
            await rename(savepoint, 'Inner');
            throw new Error('inner failed');
          })
          .catch(() => undefined);
      });

      expect(await nameNow()).toBe('Outer');
    });
  });

  it('refuses a tenant id that is not a UUID (it is sent inside the BEGIN message)', async () => {
    await expect(
      t.database.withTenant("x'; drop table users; --", (tx) => tx.execute(sql`select 1`)),
    ).rejects.toThrow(TypeError);
  });

  it('never sets the tenant at session level anywhere in the source', async () => {
    const { execSync } = await import('node:child_process');

    const hits = execSync(
      `grep -rniE "set_config\\('app\\.tenant_id'[^)]*false|\\bset app\\.tenant_id|set session app\\." apps/server/src --include=*.ts | grep -v int.test.ts || true`,
      { cwd: new URL('../../../../', import.meta.url).pathname, encoding: 'utf8' },
    );

    expect(hits.trim()).toBe('');
  });
});
