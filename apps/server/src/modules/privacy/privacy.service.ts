import { createHmac, hkdfSync } from 'node:crypto';

import { sql } from 'drizzle-orm';

import type {
  DataSubjectErasure,
  DataSubjectExport,
  EmailSubjectExport,
} from '@boomgate/contracts/privacy';

import type { AuditService } from '@/modules/audit';
import type { CapturesService } from '@/modules/captures';
import type { ImagesService } from '@/modules/images';
import type { Actor } from '@/modules/sessions';
import { drainInBatches } from '@/platform/batches';
import type { Clock } from '@/platform/clock';
import type { Database, Tx } from '@/platform/db';
import { AppError } from '@/platform/errors';
import { type ColumnSealer, PASSPORT_NUMBER, SA_ID_NUMBER } from '@/platform/sealing';
import type {
  DataSubject,
  EmailPersonalDataProvider,
  ImageRetentionProvider,
  PersonalDataProvider,
} from '@/platform/personal-data';

export type PrivacyServiceDeps = {
  database: Pick<Database, 'withTenant' | 'db'>;
  audit: Pick<AuditService, 'record' | 'listAbout'>;
  images: Pick<ImagesService, 'deleteImage'>;
  /** Capture keys on records are released, not deleted: other records may cite them (issue 14). */
  captures: Pick<CapturesService, 'release'>;
  clock: Clock;
  /** Every module holding personal data about drivers (modules.ts wires them). */
  providers: readonly PersonalDataProvider[];
  /** Every module holding data about an e-mail address (scheduled report recipients). */
  emailProviders: readonly EmailPersonalDataProvider[];
  /** Every module keeping document or gate images under a retention period. */
  imageRetention: readonly ImageRetentionProvider[];
  /** DOCUMENT_RETENTION_DAYS: for tenants that set no period of their own. */
  documentRetentionDays: number;
  /** BIOMETRIC_RETENTION_DAYS: the gate entries' face photos, for tenants without a period. */
  biometricRetentionDays: number;
  /** The data encryption key; a key for subject references is derived from it. */
  encryptionKey: Buffer;
  /** Issue 26: the keyed hashes sealed numbers are found by. */
  sealer: Pick<ColumnSealer, 'index'>;
};

export type PrivacyService = ReturnType<typeof createPrivacyService>;

const RETAINED = [
  'The audit trail: who did what and when (POPIA s14(1)(a) and the accountability condition); its entries name records by id and never hold the ID number.',
  'Gate entries, incoming entries and document records without the driver: time, plate, checks made and the decision (the site’s record of who entered; Mine Health and Safety Act / access-control obligations).',
  'Approved vehicles without their expected driver (the vehicle’s approval is the contractor’s, not the driver’s).',
];

const RETAINED_AFTER_BIOMETRICS = [
  'Everything but the biometric data: the driver record, approvals, gate entries, documents and inductions (erase the driver to remove those).',
  'The audit trail, including that biometrics were enrolled, compared and erased.',
];

const NOTES = [
  'Image fields are links to the image route: open them with the same session (each view of a face or identity document is audited).',
  'The sealed face descriptor is not exported: it is a biometric template, usable only with the server key; hasFaceEnrolment says whether one exists.',
  'Matching is by the SA ID number and by the licence and passport numbers found with it (linkedIdentifiers).',
];

const EMAIL_NOTES = [
  'Matching is by the e-mail address, case-insensitively; these are the records that name it (such as scheduled report e-mails it receives).',
  'A user account with this address is managed on the Users screen (deactivation); its sign-ins and actions stay in the audit trail.',
];

const EMAIL_RETAINED = [
  'The audit trail: that the address was on a schedule and was removed (its events never hold the address).',
];

const PURGE_BATCH = 500;

const IMAGE_ROUTE = '/api/images/';

/** The storage keys behind the image links of an exported record. */
function imageKeysIn(value: unknown): string[] {
  if (typeof value === 'string') {
    return value.startsWith(IMAGE_ROUTE) ? [value.slice(IMAGE_ROUTE.length)] : [];
  }
  if (Array.isArray(value)) return value.flatMap(imageKeysIn);
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.values(value).flatMap(imageKeysIn);
  }
  return [];
}

/**
 * POPIA in one place: data-subject access and erasure (s23, s24) over every module's provider in
 * one tenant transaction, and the retention of document and gate images (s14).
 */
export function createPrivacyService({
  database,
  audit,
  images,
  captures,
  clock,
  providers,
  emailProviders,
  imageRetention,
  documentRetentionDays,
  biometricRetentionDays,
  encryptionKey,
  sealer,
}: PrivacyServiceDeps) {
  // The audit trail must outlive an erasure without holding the ID number: it names the subject
  // by a keyed hash, which only someone holding the server key and the number can recompute.
  const subjectKey = Buffer.from(
    hkdfSync('sha256', encryptionKey, '', 'boomgate data subject reference v1', 32),
  );
  const subjectRef = (tenantId: string, idNumber: string) =>
    createHmac('sha256', subjectKey).update(`${tenantId}:${idNumber}`).digest('base64url');

  async function subjectOf(tx: Tx, tenantId: string, idNumber: string): Promise<DataSubject> {
    const subject: DataSubject = {
      tenantId,
      idNumber,
      licenceNumbers: [],
      passportNumbers: [],
      documentIds: [],
      driverIds: [],
      entryIds: [],
      numberHashes: { idNumber: '', passportNumbers: [] },
    };
    for (const provider of providers) {
      const links = await provider.link?.(tx, tenantId, idNumber);
      subject.licenceNumbers.push(...(links?.licenceNumbers ?? []));
      subject.passportNumbers.push(...(links?.passportNumbers ?? []));
      subject.documentIds.push(...(links?.documentIds ?? []));
      subject.driverIds.push(...(links?.driverIds ?? []));
      subject.entryIds.push(...(links?.entryIds ?? []));
    }
    const unique = (values: string[]) => [...new Set(values)].sort();
    const passportNumbers = unique(subject.passportNumbers);
    return {
      ...subject,
      licenceNumbers: unique(subject.licenceNumbers),
      passportNumbers,
      numberHashes: {
        idNumber: await sealer.index(tenantId, SA_ID_NUMBER, idNumber),
        passportNumbers: await Promise.all(
          passportNumbers.map((number) => sealer.index(tenantId, PASSPORT_NUMBER, number)),
        ),
      },
      documentIds: unique(subject.documentIds),
      driverIds: unique(subject.driverIds),
      entryIds: unique(subject.entryIds),
    };
  }

  /**
   * Deletes records' images inside the caller's transaction. Capture keys lose one citation per
   * occurrence (a capture no record cites any more goes with its object); other keys are deleted.
   */
  async function deleteImages(tx: Tx, tenantId: string, keys: readonly string[]) {
    const others = await captures.release(tx, tenantId, keys);
    for (const key of new Set(others)) await images.deleteImage(key);
  }

  async function erase(
    actor: Actor,
    idNumber: string,
    scope: 'all' | 'biometrics',
    ip?: string,
  ): Promise<DataSubjectErasure> {
    const { erased, imageKeys } = await database.withTenant(actor.tenantId, async (tx) => {
      const subject = await subjectOf(tx, actor.tenantId, idNumber);
      const counts: Record<string, number> = {};
      const keys: string[] = [];
      for (const provider of providers) {
        const result =
          scope === 'all'
            ? await provider.eraseSubject(tx, subject)
            : await provider.eraseBiometrics?.(tx, subject);
        if (!result) continue; // holds no biometric data
        counts[provider.section] = result.rows;
        keys.push(...result.imageKeys);
      }
      // The files go before the commit: a storage failure rolls the erasure back with the keys
      // still in the rows, so a retry finds and deletes them (storage deletes are idempotent). A
      // failed commit after this leaves rows pointing at deleted files, never files no row names.
      try {
        await deleteImages(tx, actor.tenantId, keys);
      } catch {
        throw new AppError(
          'UNAVAILABLE',
          'The image store could not delete the images, so nothing was erased. Please try again.',
        );
      }
      await audit.record(tx, {
        tenantId: actor.tenantId,
        actorUserId: actor.userId,
        action: scope === 'all' ? 'data-subject.erased' : 'data-subject.biometrics-erased',
        targetType: 'data_subject',
        targetId: subjectRef(actor.tenantId, idNumber),
        ip,
        details: { ...counts, images: new Set(keys).size },
      });
      return { erased: counts, imageKeys: keys };
    });
    return {
      erased,
      imagesDeleted: new Set(imageKeys).size,
      retained: scope === 'all' ? RETAINED : RETAINED_AFTER_BIOMETRICS,
    };
  }

  return {
    /** Everything held about the driver in the actor's organization, and who accessed it. */
    exportSubject: (actor: Actor, idNumber: string, ip?: string): Promise<DataSubjectExport> =>
      database.withTenant(actor.tenantId, async (tx) => {
        const subject = await subjectOf(tx, actor.tenantId, idNumber);
        const records: DataSubjectExport['records'] = {};
        for (const provider of providers) {
          records[provider.section] = await provider.exportSubject(tx, subject);
        }
        // The trail names records by id, and image views by the image's storage key.
        const ids = Object.values(records).flatMap((list) =>
          list.flatMap((record) => [record.id, ...imageKeysIn(record)]),
        );
        const trail = await audit.listAbout(tx, actor.tenantId, ids);
        await audit.record(tx, {
          tenantId: actor.tenantId,
          actorUserId: actor.userId,
          action: 'data-subject.exported',
          targetType: 'data_subject',
          targetId: subjectRef(actor.tenantId, idNumber),
          ip,
          details: Object.fromEntries(
            Object.entries(records).map(([section, list]) => [section, list.length]),
          ),
        });
        return {
          idNumber,
          exportedAt: clock.now().toISOString(),
          linkedIdentifiers: {
            licenceNumbers: subject.licenceNumbers,
            passportNumbers: subject.passportNumbers,
          },
          records,
          auditTrail: trail.map((event) => ({
            id: event.id,
            occurredAt: event.occurredAt.toISOString(),
            action: event.action,
            actorUserId: event.actorUserId,
            targetType: event.targetType,
            targetId: event.targetId,
          })),
          notes: NOTES,
        };
      }),

    /** Everything held about an e-mail address (not a driver: staff receiving reports). */
    exportEmailSubject: (actor: Actor, email: string, ip?: string): Promise<EmailSubjectExport> =>
      database.withTenant(actor.tenantId, async (tx) => {
        const address = email.trim().toLowerCase();
        const records: EmailSubjectExport['records'] = {};
        for (const provider of emailProviders) {
          records[provider.section] = await provider.exportEmail(tx, actor.tenantId, address);
        }
        await audit.record(tx, {
          tenantId: actor.tenantId,
          actorUserId: actor.userId,
          action: 'data-subject.exported',
          targetType: 'data_subject_email',
          targetId: subjectRef(actor.tenantId, `email:${address}`),
          ip,
          details: Object.fromEntries(
            Object.entries(records).map(([section, list]) => [section, list.length]),
          ),
        });
        return {
          email: address,
          exportedAt: clock.now().toISOString(),
          records,
          notes: EMAIL_NOTES,
        };
      }),

    /** Takes the address off every record naming it, in one transaction. Idempotent. */
    eraseEmailSubject: (actor: Actor, email: string, ip?: string): Promise<DataSubjectErasure> =>
      database.withTenant(actor.tenantId, async (tx) => {
        const address = email.trim().toLowerCase();
        const erased: Record<string, number> = {};
        for (const provider of emailProviders) {
          erased[provider.section] = await provider.eraseEmail(tx, actor.tenantId, address);
        }
        await audit.record(tx, {
          tenantId: actor.tenantId,
          actorUserId: actor.userId,
          action: 'data-subject.erased',
          targetType: 'data_subject_email',
          targetId: subjectRef(actor.tenantId, `email:${address}`),
          ip,
          details: erased,
        });
        return { erased, imagesDeleted: 0, retained: EMAIL_RETAINED };
      }),

    /**
     * Erases the driver's personal data in every module and deletes their images from storage, in
     * one transaction (all or nothing). Idempotent: a second request finds nothing and reports zeros.
     */
    eraseSubject: (actor: Actor, idNumber: string, ip?: string) =>
      erase(actor, idNumber, 'all', ip),

    /**
     * Consent to biometrics withdrawn (s11(3)): only face photos, face descriptors and their
     * consent records go, at once; the rest of what is held stays. Idempotent.
     */
    eraseBiometrics: (actor: Actor, idNumber: string, ip?: string) =>
      erase(actor, idNumber, 'biometrics', ip),

    /**
     * The daily retention job: clears and deletes document and gate images older than each
     * tenant's document period, and gate entries' face photos older than its biometric period
     * (migration 0027), record by record (one transaction each, audited). The file is
     * deleted before the key is cleared, so a crash in between leaves a key the next run clears
     * again. Returns how many records were purged; a second run finds none.
     */
    purgeExpiredDocumentImages(): Promise<number> {
      const byType = new Map(
        imageRetention.flatMap((provider) =>
          provider.recordTypes.map((type) => [type, provider] as const),
        ),
      );
      return drainInBatches({
        batch: PURGE_BATCH,
        nextBatch: async (limit) =>
          (
            await database.db.execute<{
              tenant_id: string;
              record_type: string;
              record_id: string;
            }>(
              sql`select * from retention_due_document_images(${clock.now().toISOString()}::timestamptz, ${documentRetentionDays}::int, ${biometricRetentionDays}::int, ${limit}::int)`,
            )
          ).rows,
        handle: async ({ tenant_id: tenantId, record_type: type, record_id: id }) => {
          const provider = byType.get(type);
          if (!provider) return false;
          return database.withTenant(tenantId, async (tx) => {
            const keys = await provider.expireImages(tx, tenantId, type, id);
            if (keys.length === 0) return false;
            await deleteImages(tx, tenantId, keys);
            const biometricTable = provider.biometricTypes?.[type];
            await audit.record(tx, {
              tenantId,
              actorUserId: null,
              action: biometricTable ? 'biometrics.purged' : 'document-images.purged',
              targetType: biometricTable ?? type,
              targetId: id,
              details: { reason: 'retention period ended', images: keys.length },
            });
            return true;
          });
        },
      });
    },
  };
}
