import { createHash } from 'node:crypto';

import { sql } from 'drizzle-orm';

import {
  type DriverRecord,
  type DriverSource,
  type SelfOnboardingBody,
  trailersOf,
} from '@boomgate/contracts/drivers';
import {
  IMPORT_COLUMNS,
  type ImportPreview,
  type ImportResult,
  importFieldLabel,
  importSummary,
} from '@boomgate/contracts/onboarding';
import { normalisePlate } from '@boomgate/contracts/plates';

import type { ApprovedVehiclesService } from '@/modules/approved-vehicles';
import type { AuditService } from '@/modules/audit';
import type { DriversService, NewDriverRow } from '@/modules/drivers';
import type { ImagesService } from '@/modules/images';
import type { Actor } from '@/modules/sessions';
import { type UserVisionEngine, visionErrorToAppError } from '@/modules/vision';
import { siteDay } from '@/platform/calendar';
import type { Clock } from '@/platform/clock';
import { toCsv } from '@/platform/csv';
import type { Database, Tx } from '@/platform/db';
import { AppError, isUniqueViolation } from '@/platform/errors';
import { newId } from '@/platform/ids';
import { decodeImagePayload } from '@/platform/images';

import { type ImportFile, type ImportFileRow, readImportFile } from './import-file';
import { type CheckedRow, checkRows } from './import-rows';
import { checkLivenessCaptures } from './liveness-check';

/** The notice a self-registering driver agrees to before their selfie is kept; bump on change. */
export const SELFIE_NOTICE_VERSION = 'driver-selfie-notice-2026-11';

export type OnboardingServiceDeps = {
  database: Pick<Database, 'withTenant'>;
  drivers: Pick<DriversService, 'existingIdNumbers' | 'insertDrivers' | 'referenceFor'>;
  vehicles: Pick<
    ApprovedVehiclesService,
    | 'existingPlates'
    | 'insertVehicles'
    | 'watchlistBlocks'
    | 'recordRefusedHits'
    | 'refuseWatchedPlates'
  >;
  images: Pick<ImagesService, 'storeImage' | 'deleteImage'>;
  audit: Pick<AuditService, 'record'>;
  clock: Clock;
  faces: {
    forUser(
      userId: string,
    ): Pick<ReturnType<UserVisionEngine['forUser']>, 'embedFace' | 'compareFaceToDescriptor'>;
  };
  /** How long a selfie is kept after consent (POPIA). */
  biometricRetentionDays: number;
};

export type OnboardingService = ReturnType<typeof createOnboardingService>;

export type UploadedFile = { fileName: string; bytes: Buffer };

const raceConflict = () =>
  new AppError(
    'CONFLICT',
    'Some of these drivers or vehicles were registered by someone else meanwhile. Preview the file again.',
  );

export function createOnboardingService({
  database,
  drivers,
  vehicles,
  images,
  audit,
  clock,
  faces,
  biometricRetentionDays,
}: OnboardingServiceDeps) {
  const today = () => siteDay(clock.now());

  /** Checks rows against the file and the tenant's records, inside the caller's transaction. */
  async function check(tx: Tx, tenantId: string, rows: readonly ImportFileRow[]) {
    const idNumbers = rows.flatMap(({ values }) =>
      values.idNumber ? [values.idNumber.replace(/\s/g, '')] : [],
    );
    const plates = rows.flatMap(({ values }) =>
      values.plateNumber ? [normalisePlate(values.plateNumber)] : [],
    );
    // Issue 21: the watchlist screens every plate of a row, the trailers' too.
    const allPlates = rows.flatMap(({ values }) =>
      [values.plateNumber, values.trailer1Plate, values.trailer2Plate].flatMap((plate) =>
        plate ? [normalisePlate(plate)] : [],
      ),
    );
    const existingIdNumbers = await drivers.existingIdNumbers(tx, tenantId, idNumbers);
    const existingPlates = await vehicles.existingPlates(tx, tenantId, plates);
    const blocks = await vehicles.watchlistBlocks(tx, tenantId, allPlates);
    return checkRows(rows, {
      today: today(),
      existingIdNumbers,
      existingPlates,
      blockedPlates: blocks.blocked,
    }).map((row) => Object.assign(row, { watchlistHits: blocks.hits }));
  }

  /**
   * A one-record path (individual tab, self onboarding) with a plate the watchlist blocks: refused
   * first in its own committed transaction, so the refusal and its hits stay audited.
   */
  const refuseWatched = (actor: Actor, values: ImportFileRow['values'], ip?: string) =>
    vehicles.refuseWatchedPlates(
      actor,
      [values.plateNumber, values.trailer1Plate, values.trailer2Plate].flatMap((plate) =>
        plate ? [normalisePlate(plate)] : [],
      ),
      ip,
    );

  /** A one-record path (individual tab, self onboarding) refused by the watchlist: a 422. */
  const refusedByWatchlist = (checked: CheckedRow) =>
    checked.watchlistBlocked
      ? new AppError(
          'UNPROCESSABLE',
          checked.errors.map((error) => error.message).join(' ') ||
            'The vehicle cannot be pre-registered.',
        )
      : null;

  /** Drivers and their vehicles from valid records, in the caller's transaction. */
  async function insertRecords(
    tx: Tx,
    actor: Actor,
    records: readonly DriverRecord[],
    source: DriverSource,
  ) {
    const now = clock.now();
    // Each vehicle links to the driver it is onboarded for, so the gate can show their induction.
    const withIds = records.map((record) => ({ record, driverId: newId() }));
    const driverRows = await drivers.insertDrivers(
      tx,
      withIds.map(({ record, driverId }): NewDriverRow => ({
        tenantId: actor.tenantId,
        id: driverId,
        idNumber: record.idNumber,
        name: record.name,
        surname: record.surname,
        phone: record.phone,
        licenceNumber: record.licenceNumber,
        licenceValidTo: record.licenceValidTo,
        transportCompany: record.transportCompany,
        source,
        createdAt: now,
        createdBy: actor.userId,
        updatedAt: now,
      })),
    );
    const vehicleRows = await vehicles.insertVehicles(
      tx,
      actor,
      withIds.flatMap(({ record, driverId }) =>
        record.plateNumber === null
          ? []
          : [
              {
                plateNumber: record.plateNumber,
                driverName: `${record.name} ${record.surname}`,
                driverLicense: record.licenceNumber,
                company: record.transportCompany,
                approvedUntil: record.approvedUntil,
                trailers: trailersOf(record),
                driverId,
              },
            ],
      ),
    );
    return { driverRows, vehicleRows };
  }

  /** Two imports of one tenant run one after the other, so their duplicate checks agree. */
  const lockTenantImports = (tx: Tx, tenantId: string) =>
    tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`onboarding:${tenantId}`}, 0))`);

  async function readAndCheck(actor: Actor, upload: UploadedFile) {
    const file = await readImportFile(upload.fileName, upload.bytes);
    const checked = await database.withTenant(actor.tenantId, (tx) =>
      check(tx, actor.tenantId, file.rows),
    );
    return { file, checked };
  }

  const rejectedOf = (checked: readonly CheckedRow[]) =>
    checked
      .filter((row) => row.errors.length > 0)
      .map((row) => ({ rowNumber: row.rowNumber, errors: row.errors }));

  return {
    /** Every row with its errors, and what an import would create now. Writes nothing. */
    async preview(actor: Actor, upload: UploadedFile): Promise<ImportPreview> {
      const { file, checked } = await readAndCheck(actor, upload);
      const valid = checked.filter((row) => row.record !== null);
      return {
        fileName: upload.fileName,
        fileType: file.fileType,
        totalRows: checked.length,
        validRows: valid.length,
        drivers: valid.length,
        vehicles: valid.filter((row) => row.record?.plateNumber).length,
        rows: checked.map((row) => ({
          rowNumber: row.rowNumber,
          values: row.values,
          errors: row.errors,
        })),
      };
    },

    /**
     * Re-reads and re-validates the file, then writes every valid row (drivers and approved
     * vehicles) in ONE transaction with the audit event: all of them or none.
     */
    async importFile(actor: Actor, upload: UploadedFile, ip?: string): Promise<ImportResult> {
      const file: ImportFile = await readImportFile(upload.fileName, upload.bytes);
      try {
        return await database.withTenant(actor.tenantId, async (tx) => {
          await lockTenantImports(tx, actor.tenantId);
          const checked = await check(tx, actor.tenantId, file.rows);
          const records = checked.flatMap((row) => (row.record ? [row.record] : []));
          const { driverRows, vehicleRows } = await insertRecords(tx, actor, records, 'bulk');
          const rejected = rejectedOf(checked);
          // Issue 21: rows refused by the watchlist raise its hits (alerts, watchlist.hit).
          const watched = checked.find((row) => row.watchlistBlocked);
          if (watched) {
            await vehicles.recordRefusedHits(tx, actor, watched.watchlistHits, {
              targetType: 'onboarding_import',
              targetId: newId(),
              ip,
            });
          }
          await audit.record(tx, {
            tenantId: actor.tenantId,
            actorUserId: actor.userId,
            action: 'onboarding.imported',
            targetType: 'driver',
            ip,
            details: {
              fileName: upload.fileName,
              fileType: file.fileType,
              sha256: createHash('sha256').update(upload.bytes).digest('hex'),
              rows: checked.length,
              drivers: driverRows.length,
              vehicles: vehicleRows.length,
              rejected: rejected.length,
              refusedByWatchlist: checked.filter((row) => row.watchlistBlocked).length,
            },
          });
          return {
            driversImported: driverRows.length,
            vehiclesImported: vehicleRows.length,
            rejected,
            summary: importSummary(driverRows.length, vehicleRows.length),
          };
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw raceConflict();
        throw error;
      }
    },

    /** The rows that would be rejected, as CSV with an Errors column (formula-neutralised). */
    async errorReport(actor: Actor, upload: UploadedFile): Promise<string> {
      const { checked } = await readAndCheck(actor, upload);
      return toCsv(
        ['Row', ...IMPORT_COLUMNS.map((column) => column.header), 'Errors'],
        checked
          .filter((row) => row.errors.length > 0)
          .map((row) => [
            String(row.rowNumber),
            ...IMPORT_COLUMNS.map((column) => row.values[column.field] ?? ''),
            row.errors
              .map((error) => {
                const label = importFieldLabel(error.field);
                return label ? `${label}: ${error.message}` : error.message;
              })
              .join('; '),
          ]),
      );
    },

    /** The individual tab: one record through the same checks as a file row. */
    async createDriver(actor: Actor, body: Record<string, unknown>, ip?: string) {
      const values = stringValues(body);
      await refuseWatched(actor, values, ip);
      try {
        return await database.withTenant(actor.tenantId, async (tx) => {
          await lockTenantImports(tx, actor.tenantId);
          const [checked] = await check(tx, actor.tenantId, [{ rowNumber: 1, values }]);
          const refused = checked ? refusedByWatchlist(checked) : null;
          if (refused) throw refused;
          if (!checked?.record) {
            const errors = checked?.errors ?? [];
            const isDuplicate = errors.some((error) => /already registered/.test(error.message));
            throw new AppError(
              isDuplicate ? 'CONFLICT' : 'INVALID',
              errors.map((error) => error.message).join(' ') || 'The driver could not be added.',
            );
          }
          const { driverRows, vehicleRows } = await insertRecords(
            tx,
            actor,
            [checked.record],
            'individual',
          );
          const driver = driverRows[0];
          if (!driver) throw new Error('Expected the inserted driver');
          await audit.record(tx, {
            tenantId: actor.tenantId,
            actorUserId: actor.userId,
            action: 'driver.created',
            targetType: 'driver',
            targetId: driver.id,
            ip,
            details: { source: 'individual', vehicleId: vehicleRows[0]?.id ?? null },
          });
          return { driver, vehicle: vehicleRows[0] ?? null };
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw raceConflict();
        throw error;
      }
    },

    /**
     * Spec §4 self onboarding, stored: the driver's details, the licence photo and the liveness
     * selfie (one face, checked by the engine; kept with the recorded consent until the retention
     * period ends). Images go to object storage; the row keeps their keys.
     */
    async selfOnboard(
      actor: Actor,
      body: Record<string, unknown> &
        Pick<SelfOnboardingBody, 'licencePhoto' | 'selfie' | 'livenessFrames'>,
      ip?: string,
    ) {
      await refuseWatched(actor, stringValues(body), ip);
      // Every image passes the size and pixel checks before anything decodes any of them.
      const selfie = decodeImagePayload(body.selfie);
      decodeImagePayload(body.licencePhoto);
      const frames = {
        look: decodeImagePayload(body.livenessFrames.look).bytes,
        blink: decodeImagePayload(body.livenessFrames.blink).bytes,
        turn_left: decodeImagePayload(body.livenessFrames.turn_left).bytes,
        turn_right: decodeImagePayload(body.livenessFrames.turn_right).bytes,
      };
      const record = await database.withTenant(actor.tenantId, async (tx) => {
        const [checked] = await check(tx, actor.tenantId, [
          { rowNumber: 1, values: stringValues(body) },
        ]);
        const refused = checked ? refusedByWatchlist(checked) : null;
        if (refused) throw refused;
        if (!checked?.record) {
          const errors = checked?.errors ?? [];
          const isDuplicate = errors.some((error) => /already registered/.test(error.message));
          throw new AppError(
            isDuplicate ? 'CONFLICT' : 'INVALID',
            isDuplicate
              ? 'You are already registered: a driver with this ID number exists.'
              : errors.map((error) => error.message).join(' '),
          );
        }
        return checked.record;
      });
      const engine = faces.forUser(actor.userId);
      let face: Awaited<ReturnType<typeof engine.embedFace>>;
      let liveness: Awaited<ReturnType<typeof checkLivenessCaptures>>;
      try {
        face = await engine.embedFace(selfie.bytes);
        if (!face.ok) throw new AppError('UNPROCESSABLE', `Selfie: ${face.error.message}`);
        // The server's verdict, from the frames; a confidence the browser sends is ignored.
        liveness = await checkLivenessCaptures(engine, face.descriptor, frames);
      } catch (error) {
        throw error instanceof AppError ? error : visionErrorToAppError(error);
      }

      const stored: string[] = [];
      try {
        const licenceImageKey = await images.storeImage(
          actor.tenantId,
          'drivers-licences',
          body.licencePhoto,
        );
        stored.push(licenceImageKey);
        const photoKey = await images.storeImage(actor.tenantId, 'driver-photos', body.selfie);
        stored.push(photoKey);
        return await database.withTenant(actor.tenantId, async (tx) => {
          const now = clock.now();
          const [driver] = await drivers.insertDrivers(tx, [
            {
              tenantId: actor.tenantId,
              id: newId(),
              idNumber: record.idNumber,
              name: record.name,
              surname: record.surname,
              phone: record.phone,
              licenceNumber: record.licenceNumber,
              licenceValidTo: record.licenceValidTo,
              transportCompany: record.transportCompany,
              photoKey,
              licenceImageKey,
              photoConsentAt: now,
              photoConsentBy: actor.userId,
              photoConsentNotice: SELFIE_NOTICE_VERSION,
              biometricsPurgeAfter: new Date(now.getTime() + biometricRetentionDays * 86_400_000),
              livenessConfidence: liveness.confidence,
              source: 'self',
              createdAt: now,
              createdBy: actor.userId,
              updatedAt: now,
            },
          ]);
          if (!driver) throw new Error('Expected the inserted driver');
          await audit.record(tx, {
            tenantId: actor.tenantId,
            actorUserId: actor.userId,
            action: 'driver.created',
            targetType: 'driver',
            targetId: driver.id,
            ip,
            details: {
              source: 'self',
              consentNotice: SELFIE_NOTICE_VERSION,
              // What the server saw in the four captures: the stored verdict's evidence.
              liveness: { confidence: liveness.confidence, ...liveness.evidence },
            },
          });
          return { driver, reference: drivers.referenceFor(driver) };
        });
      } catch (error) {
        await Promise.all(stored.map((key) => images.deleteImage(key)));
        if (isUniqueViolation(error)) {
          throw new AppError(
            'CONFLICT',
            'You are already registered: a driver with this ID number exists.',
          );
        }
        throw error;
      }
    },
  };
}

/** The driver fields of a JSON body as the strings a file row would hold. */
function stringValues(body: Record<string, unknown>): ImportFileRow['values'] {
  const values: ImportFileRow['values'] = {};
  for (const column of IMPORT_COLUMNS) {
    const value = body[column.field];
    if (typeof value === 'string' && value.trim() !== '') values[column.field] = value;
  }
  return values;
}
