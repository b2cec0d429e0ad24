import { sql } from 'drizzle-orm';

import type { AuditService } from '@/modules/audit';
import type { ImagesService } from '@/modules/images';
import type { Actor } from '@/modules/sessions';
import { siteDay } from '@/platform/calendar';
import { drainInBatches } from '@/platform/batches';
import type { Clock } from '@/platform/clock';
import { toCsv } from '@/platform/csv';
import type { Database, DbExecutor } from '@/platform/db';
import { AppError } from '@/platform/errors';
import { readPageCursor } from '@/platform/page-cursor';

import type { DriverReferenceSigner } from './driver-reference';
import { listDriversPage } from './drivers-page';
import type { DriverInput, DriversRepository } from './drivers.repository';
import type { DriverRow } from './drivers.table';

export type DriversServiceDeps = {
  database: Pick<Database, 'withTenant' | 'db'>;
  repository: DriversRepository;
  images: Pick<ImagesService, 'deleteImage'>;
  audit: Pick<AuditService, 'record'>;
  clock: Clock;
  signer: DriverReferenceSigner;
  /** The server's default selfie retention, for tenants that set none (POPIA). */
  biometricRetentionDays: number;
};

export type DriversService = ReturnType<typeof createDriversService>;

/** Rows per purge batch, and batches per run (500 × 200 = 100,000 selfies a day at most). */
const PURGE_BATCH = 500;

const notFound = () => new AppError('NOT_FOUND', 'Driver not found.');

const EXPORT_HEADER = [
  'Driver Name',
  'Surname',
  'ID Number',
  'Phone',
  'Licence Number',
  'Licence Valid To',
  'Transport Company',
  'Source',
  'Registered At',
];

export function createDriversService({
  database,
  repository,
  images,
  audit,
  clock,
  signer,
  biometricRetentionDays,
}: DriversServiceDeps) {
  const today = () => siteDay(clock.now());
  return {
    /** One page of the tenant's drivers, newest first (only its ID numbers are opened). */
    listDrivers: (actor: Actor, { limit, cursor }: { limit: number; cursor?: string }) => {
      const after = readPageCursor(cursor);
      return database.withTenant(actor.tenantId, (tx) =>
        listDriversPage(tx, repository, actor.tenantId, limit, after),
      );
    },

    async getDriver(actor: Actor, id: string) {
      const row = await database.withTenant(actor.tenantId, (tx) =>
        repository.find(tx, actor.tenantId, id),
      );
      if (!row) throw notFound();
      return row;
    },

    /** Every driver as CSV (cells neutralised against formula injection); the export is audited. */
    exportCsv: (actor: Actor, ip?: string) =>
      database.withTenant(actor.tenantId, async (tx) => {
        const rows = await repository.list(tx, actor.tenantId);
        await audit.record(tx, {
          tenantId: actor.tenantId,
          actorUserId: actor.userId,
          action: 'drivers.exported',
          targetType: 'driver',
          ip,
          details: { drivers: rows.length },
        });
        return toCsv(
          EXPORT_HEADER,
          rows.map((row) => [
            row.name,
            row.surname,
            row.idNumber,
            row.phone,
            row.licenceNumber,
            row.licenceValidTo,
            row.transportCompany,
            row.source,
            row.createdAt.toISOString(),
          ]),
        );
      }),

    /** The signed reference a driver's QR code carries. */
    referenceFor: (row: Pick<DriverRow, 'tenantId' | 'id'>) => signer.sign(row.tenantId, row.id),

    /**
     * A scanned reference: a bad signature is refused; a good one of another tenant answers like
     * a driver that does not exist. Audited: the gate looked a person up.
     */
    async verifyReference(actor: Actor, reference: string, ip?: string) {
      const named = signer.verify(reference);
      if (!named) {
        throw new AppError(
          'UNPROCESSABLE',
          'This code is not a driver reference issued by Boomgate.',
        );
      }
      if (named.tenantId !== actor.tenantId) throw notFound();
      return database.withTenant(actor.tenantId, async (tx) => {
        const row = await repository.find(tx, actor.tenantId, named.driverId);
        if (!row) throw notFound();
        await audit.record(tx, {
          tenantId: actor.tenantId,
          actorUserId: actor.userId,
          action: 'driver.reference-verified',
          targetType: 'driver',
          targetId: row.id,
          ip,
        });
        const licenceExpired = row.licenceValidTo !== null && row.licenceValidTo < today();
        return { row, licenceExpired };
      });
    },

    /**
     * The retention job: ends every selfie whose period is over, tenant by tenant (the row and the
     * rest of the record stay), batch after batch until none is due. The file is deleted inside
     * the row's transaction, before the commit: a storage failure rolls the clearing back and the
     * next run finds the key again. Safe to run again: a purged row is no longer due.
     */
    purgeExpiredBiometrics: (batch = PURGE_BATCH): Promise<number> =>
      drainInBatches({
        batch,
        nextBatch: async (limit) =>
          (
            await database.db.execute<{ tenant_id: string; driver_id: string }>(
              sql`select * from drivers_due_biometric_purge(${clock.now().toISOString()}::timestamptz, ${biometricRetentionDays}::int, ${limit}::int)`,
            )
          ).rows,
        handle: ({ tenant_id: tenantId, driver_id: driverId }) =>
          database.withTenant(tenantId, async (tx) => {
            const row = await repository.clearPhoto(tx, tenantId, driverId, clock.now());
            if (!row) return false;
            if (row.photoKey) await images.deleteImage(row.photoKey);
            await audit.record(tx, {
              tenantId,
              actorUserId: null,
              action: 'biometrics.purged',
              targetType: 'driver',
              targetId: driverId,
              details: { reason: 'retention period ended' },
            });
            return true;
          }),
      }),

    // For the onboarding module, inside its own tenant transaction.
    existingIdNumbers: (tx: DbExecutor, tenantId: string, idNumbers: readonly string[]) =>
      repository.existingIdNumbers(tx, tenantId, idNumbers),
    insertDrivers: (tx: DbExecutor, rows: readonly DriverInput[]) =>
      repository.insertMany(tx, rows),
    /** For the plate lookup, in its transaction: the ID number of a driver a vehicle links to. */
    async findIdNumber(tx: DbExecutor, tenantId: string, driverId: string) {
      return (await repository.find(tx, tenantId, driverId))?.idNumber;
    },
  };
}
