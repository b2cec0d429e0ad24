import type { EntryCapture, EntryDetail } from '@boomgate/contracts/entry-detail';
import type { Reading, ReadingSource } from '@boomgate/contracts/readings';
import type { Role } from '@boomgate/contracts/roles';

import type { AuditService } from '@/modules/audit';
import type { CapturesService } from '@/modules/captures';
import { type CorrectionsService, asTypedText, toCorrection } from '@/modules/corrections';
import { type FieldsOpener, citedDocuments } from '@/modules/documents';
import type { FacesService } from '@/modules/faces';
import type { ImagesService } from '@/modules/images';
import type { Actor } from '@/modules/sessions';
import type { Database } from '@/platform/db';
import { AppError } from '@/platform/errors';
import { maskIdentifier } from '@/platform/personal-data';
import { NUMBER_FIELDS } from '@/platform/personal-text';

import type { EntryLogsRepository } from './entry-logs.repository';
import type { EntryLogRow } from './entry-logs.table';

export type EntryDetailDeps = {
  database: Pick<Database, 'withTenant'>;
  repository: EntryLogsRepository;
  captures: Pick<CapturesService, 'findByImageKeys'>;
  corrections: Pick<CorrectionsService, 'listFor'>;
  faces: Pick<FacesService, 'findForEntry'>;
  audit: Pick<AuditService, 'listAbout'>;
  images: Pick<ImagesService, 'urlFor'>;
  /** Issue 26: the cited personal documents' fields are sealed at rest. */
  sealer: FieldsOpener;
};

/** Entry image fields, by the column holding each key. */
const ENTRY_IMAGES = [
  ['plateImage', 'plateImageKey'],
  ['vehicleDiskImage', 'vehicleDiskImageKey'],
  ['driverFaceImage', 'driverFaceImageKey'],
  ['driverLicenseImage', 'driverLicenseImageKey'],
  ['passportImage', 'passportImageKey'],
] as const;

/** Document citations, named as on the detail (the grant-entry field without `Id`). */
const DOCUMENT_NAMES = {
  vehicleLicenceDiscId: 'vehicleLicenceDisc',
  identityDocumentId: 'identityDocument',
  driversLicenceId: 'driversLicence',
  passportRecordId: 'passportRecord',
  weighbridgeTicketId: 'weighbridgeTicket',
} as const;

/**
 * What a guard does not see on the detail, as on the lists (SEC-15): face, ID, licence and
 * passport images, and identity, passport and personal numbers in full.
 */
const GUARD_HIDDEN_IMAGE_TYPES = new Set(['face', 'id', 'license', 'passport']);
const GUARD_HIDDEN_IMAGES = new Set([
  'driverFaceImage',
  'driverLicenseImage',
  'passportImage',
  'identityDocument',
  'driversLicence',
  'passportRecord',
]);

const maskValue = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(() => '***')
    : value === null || value === undefined
      ? null
      : maskIdentifier(asTypedText(value));

function maskReading(reading: Reading | null): Reading | null {
  if (!reading) return null;
  const fields: Record<string, { value: unknown; confidence: number; source: ReadingSource }> = {};
  for (const [name, field] of Object.entries(reading.fields) as [
    string,
    { value: unknown; confidence: number; source: ReadingSource },
  ][])
    fields[name] = NUMBER_FIELDS.has(name) ? { ...field, value: maskValue(field.value) } : field;
  return { ...reading, fields };
}

export function createEntryDetail({
  database,
  repository,
  captures,
  corrections,
  faces,
  audit,
  images,
  sealer,
}: EntryDetailDeps) {
  /**
   * The entry with its evidence; 404 for an unknown id or another tenant's (row-level security
   * hides those). `toEntryLog` is the routes' mapping, masking included for the caller's role.
   */
  return async function entryDetail(
    actor: Actor,
    id: string,
    toEntryLog: (row: EntryLogRow) => EntryDetail['entry'],
  ): Promise<EntryDetail> {
    const detail = await database.withTenant(actor.tenantId, async (tx) => {
      const row = await repository.findById(tx, actor.tenantId, id);
      if (!row) throw new AppError('NOT_FOUND', 'Entry not found.');
      const documents = await citedDocuments(tx, actor.tenantId, row, sealer);
      const cited: { citedAs: string; key: string }[] = [
        ...ENTRY_IMAGES.flatMap(([citedAs, column]) => {
          const key = row[column];
          return key ? [{ citedAs, key }] : [];
        }),
        ...row.permitImageKeys.map((key) => ({ citedAs: 'permitImages', key })),
        ...documents.flatMap((document) =>
          document.imageKey
            ? [{ citedAs: DOCUMENT_NAMES[document.citedAs], key: document.imageKey }]
            : [],
        ),
      ];
      const held = await captures.findByImageKeys(
        tx,
        actor.tenantId,
        cited.map((image) => image.key),
      );
      const byKey = new Map(held.map((capture) => [capture.imageKey, capture]));
      const entryCaptures: EntryCapture[] = cited.map(({ citedAs, key }) => {
        const capture = byKey.get(key);
        return {
          captureId: capture?.id ?? null,
          citedAs,
          type: capture?.type ?? null,
          image: images.urlFor(key),
          reading: capture?.reading ?? null,
          takenAt: capture?.createdAt.toISOString() ?? null,
        };
      });
      const documentIds = documents.map((document) => document.id);
      const correctionRows = await corrections.listFor(tx, actor.tenantId, {
        entryLogId: row.id,
        documentIds,
      });
      const face = await faces.findForEntry(tx, actor.tenantId, row.id);
      const trail = await audit.listAbout(tx, actor.tenantId, [
        row.id,
        ...documentIds,
        ...(face ? [face.id] : []),
      ]);
      return {
        entry: toEntryLog(row),
        captures: entryCaptures,
        documents: documents.map((document) => ({
          citedAs: DOCUMENT_NAMES[document.citedAs],
          id: document.id,
          fields: document.fields,
        })),
        corrections: correctionRows.map(toCorrection),
        faceComparison: face
          ? {
              id: face.id,
              comparedAt: face.comparedAt.toISOString(),
              reference: face.reference,
              matchScore: face.matchScore,
              decision: face.decision,
              liveness: face.liveness,
              antispoofPassed: face.antispoofPassed,
            }
          : null,
        auditTrail: trail.map((event) => ({
          id: event.id,
          occurredAt: event.occurredAt.toISOString(),
          action: event.action,
          actorUserId: event.actorUserId,
          targetType: event.targetType,
          targetId: event.targetId,
        })),
      };
    });
    return asSeenBy(actor.role, detail);
  };
}

/** The detail as a role may see it: a guard's is masked like the lists (SEC-15). */
export function asSeenBy(role: Role, detail: EntryDetail): EntryDetail {
  if (role !== 'security_guard') return detail;
  return {
    ...detail,
    captures: detail.captures.map((capture) =>
      GUARD_HIDDEN_IMAGES.has(capture.citedAs) ||
      (capture.type !== null && GUARD_HIDDEN_IMAGE_TYPES.has(capture.type))
        ? { ...capture, image: null, reading: maskReading(capture.reading) }
        : { ...capture, reading: maskReading(capture.reading) },
    ),
    documents: detail.documents.map((document) => ({
      ...document,
      fields: Object.fromEntries(
        Object.entries(document.fields).map(([name, value]) => [
          name,
          NUMBER_FIELDS.has(name) ? (maskValue(value) as string | null) : value,
        ]),
      ),
    })),
    corrections: detail.corrections.map((correction) =>
      NUMBER_FIELDS.has(correction.field)
        ? {
            ...correction,
            readValue: maskValue(correction.readValue),
            typedValue: maskIdentifier(correction.typedValue) ?? '',
          }
        : correction,
    ),
  };
}
