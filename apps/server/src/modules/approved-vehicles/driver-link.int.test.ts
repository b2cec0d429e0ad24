/**
 * The vehicle-to-driver link in the database: the foreign key of migration 0026 and the backfill
 * of migration 0028 for vehicles registered before the link existed.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';

import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { MIGRATIONS_DIR } from '@/platform/database-bootstrap';
import { type Session, type TestApp, createTestApp } from '@/testing/test-app';

describe('approved_vehicles.driver_id', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('is cleared, and only it, when its driver is deleted: ON DELETE SET NULL (driver_id)', async () => {
    const rows = await t.ownerQuery<{ action: string; columns: string[] }>(
      `select c.confdeltype::text as action,
              array(select a.attname::text from unnest(c.confdelsetcols) as k(attnum)
                    join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.attnum
                    order by a.attname) as columns
         from pg_constraint c
        where c.contype = 'f'
          and c.conrelid = 'approved_vehicles'::regclass
          and c.confrelid = 'drivers'::regclass`,
    );

    // 'n' is SET NULL; an empty column list would mean every referencing column, tenant_id too.
    expect(rows).toEqual([{ action: 'n', columns: ['driver_id'] }]);
  });

  describe('backfill of vehicles registered before the link (migration 0028)', () => {
    /**
     * Runs the migration's statements in one transaction as the owner, as the migrator does. (The
     * template database ran it already, before these rows existed; it only touches unlinked
     * vehicles, so running it again is what it would do to older rows.) The test's owner is a
     * superuser, so this shows that FORCE row-level security is restored, not that lifting it was
     * needed: that is for an owner without BYPASSRLS.
     */
    async function runBackfill() {
      const text = await readFile(
        path.join(MIGRATIONS_DIR, '0028_approved_vehicle_driver_backfill.sql'),
        'utf8',
      );
      const client = new pg.Client({ connectionString: t.ownerUrl });
      await client.connect();
      try {
        await client.query('begin');
        for (const statement of text.split('--> statement-breakpoint')) {
          await client.query(statement);
        }
        await client.query('commit');
      } finally {
        await client.end();
      }
    }

    let idNumber = 8001015000000;
    const aDriver = async (session: Session, licenceNumber: string | null) => {
      const id = crypto.randomUUID();
      idNumber += 1;
      await t.ownerQuery(
        `insert into drivers (tenant_id, id, id_number, name, surname, licence_number, source)
         values ($1, $2, $3, 'Sipho', 'Dlamini', $4, 'bulk')`,
        [session.body.tenant.id, id, String(idNumber), licenceNumber],
      );
      return id;
    };
    /** A vehicle registered on the Registered Vehicles form: the licence as typed, no driver_id. */
    const aVehicle = async (
      session: Session,
      plateNumber: string,
      driverLicense: string | null,
    ) => {
      const response = await session.post('/api/approved-vehicles', {
        plateNumber,
        driverName: 'Sipho Dlamini',
        driverLicense,
      });
      expect(response.statusCode).toBe(201);
    };
    const linksOf = async (session: Session) =>
      Object.fromEntries(
        (
          await t.ownerQuery<{ plate_number: string; driver_id: string | null }>(
            'select plate_number, driver_id from approved_vehicles where tenant_id = $1',
            [session.body.tenant.id],
          )
        ).map((row) => [row.plate_number, row.driver_id]),
      );

    it('links a vehicle to the one driver of its tenant with its licence number, and no other', async () => {
      const acme = await t.registerTenant();
      const other = await t.registerTenant();
      const sipho = await aDriver(acme, '4020000ABCDE');
      await aDriver(acme, 'SHARED1');
      await aDriver(acme, 'SHARED1');
      const alreadyLinkedTo = await aDriver(acme, '4030000XYZ');
      const elsewhere = await aDriver(other, 'OTHERONLY9');
      await aVehicle(acme, 'BF01AAGP', ' 4020000 abcde ');
      await aVehicle(acme, 'BF02AAGP', 'SHARED1');
      await aVehicle(acme, 'BF03AAGP', 'OTHERONLY9');
      await aVehicle(acme, 'BF04AAGP', null);
      await aVehicle(acme, 'BF05AAGP', '4020000ABCDE');
      await t.ownerQuery(
        `update approved_vehicles set driver_id = $2 where tenant_id = $1 and plate_number = 'BF05AAGP'`,
        [acme.body.tenant.id, alreadyLinkedTo],
      );
      await aVehicle(other, 'BF06AAGP', 'OTHERONLY9');
      const countsBefore = await t.ownerQuery(
        'select * from approved_vehicle_expiry_counts order by tenant_id, approved_until',
      );

      await runBackfill();

      expect(await linksOf(acme)).toEqual({
        BF01AAGP: sipho, // the same licence, typed with spaces and in lower case
        BF02AAGP: null, // two drivers share the licence: which one is unknown
        BF03AAGP: null, // the only driver with it belongs to another tenant
        BF04AAGP: null, // no licence
        BF05AAGP: alreadyLinkedTo, // already linked: left alone
      });
      expect(await linksOf(other)).toEqual({ BF06AAGP: elsewhere });
      expect(
        await t.ownerQuery(
          'select * from approved_vehicle_expiry_counts order by tenant_id, approved_until',
        ),
      ).toEqual(countsBefore);
      expect(
        await t.ownerQuery(
          `select relname::text, relforcerowsecurity from pg_class
            where relname in ('approved_vehicles', 'drivers') order by relname`,
        ),
      ).toEqual([
        { relname: 'approved_vehicles', relforcerowsecurity: true },
        { relname: 'drivers', relforcerowsecurity: true },
      ]);
    });
  });
});
