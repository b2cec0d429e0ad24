import { createHash } from 'node:crypto';

import { sql } from 'drizzle-orm';

import { isCaptureKey } from '@/modules/images';
import type { DbExecutor } from '@/platform/db';
import { AppError, findPgError } from '@/platform/errors';
import { isSealedObject } from '@/platform/sealing';
import { isStorageKey } from '@/platform/storage';

import type {
  SiteAuditPayload,
  SiteCapturePayload,
  SiteCorrectionPayload,
  SiteDocument,
  SiteEntryPayload,
  SiteFaceComparisonPayload,
} from './site-facts';

/**
 * Issue 28 (ADR 0009): central's side of the site facts that are rows of the site's own tables
 * (captures, face comparisons, corrections, audit events). Each is inserted under the fact's id
 * into central's table of the same name, so the entry detail and the audit log show them as
 * central's own; `on conflict do nothing` keeps a resent fact from applying twice.
 */

/** The stored objects as they are (the bytes arrive sealed with the tenant's data key). */
export type RawObjects = {
  put(key: string, bytes: Uint8Array): Promise<void>;
  has(key: string): Promise<boolean>;
};

/** Thrown for a payload that parses but cannot be applied (a 400 for the batch). */
export class SiteFactError extends Error {}

async function insertRow(tx: DbExecutor, table: string, row: Record<string, unknown>) {
  const result = await tx.execute<{ id: string }>(
    sql`insert into ${sql.identifier(table)}
        select * from jsonb_populate_record(null::${sql.identifier(table)}, ${JSON.stringify(row)}::jsonb)
        on conflict do nothing returning id`,
  );
  return result.rows.length === 1;
}

/**
 * The capture's object, decoded and checked before anything is written; null when the node said
 * it no longer holds it (`objects_missing`).
 */
export function captureObject(tenantId: string, capture: SiteCapturePayload): Buffer | null {
  const key = capture.image_key;
  if (!isStorageKey(key) || !isCaptureKey(key) || !key.startsWith(`${tenantId}/`))
    throw new SiteFactError("payload.image_key: not a capture's storage key of this tenant");
  if (capture.object === undefined) return null;
  const bytes = Buffer.from(capture.object, 'base64');
  if (!isSealedObject(bytes))
    throw new SiteFactError(
      "payload.object: not a sealed object (the site seals with the tenant's key)",
    );
  return bytes;
}

/**
 * What central keeps of a capture fact: the row, with the object's digest instead of its bytes
 * (`bytes` null: the object is missing, the row keeps `objects_missing` as sent).
 */
export function storedCapturePayload(payload: Record<string, unknown>, bytes: Buffer | null) {
  const { object: _object, ...row } = payload;
  if (bytes === null) return row;
  return {
    ...row,
    object_sha256: createHash('sha256').update(bytes).digest('hex'),
    object_bytes: bytes.length,
  };
}

/** An entry's image fields (keys), as the site's entry_logs row names them. */
export const SITE_ENTRY_IMAGE_FIELDS = [
  'plate_image_key',
  'vehicle_disk_image_key',
  'driver_face_image_key',
  'driver_license_image_key',
  'passport_image_key',
] as const;

/** The same fields as columns of `entry_logs e`, for the queries that look inside entries. */
const ENTRY_IMAGE_COLUMNS_SQL = sql.join(
  SITE_ENTRY_IMAGE_FIELDS.map((field) => sql`e.${sql.identifier(field)}`),
  sql`, `,
);

/** An uncited site capture waits this long at central for the facts that cite it (CAPTURE_TTL_MS). */
const UNCITED_WAIT_MS = 24 * 3_600_000;

/**
 * Stores the capture's object and row. Its citations are central's own count, as for any capture
 * (issue 14): the site entries (of its site, recorded since it was taken) holding its key in an
 * image field, and the face comparisons naming it as their live photo. Facts arriving later add
 * theirs (`citeSiteCaptures`); an uncited one is purged with its object a day after it arrived,
 * as the site purges it a day after it was taken.
 */
export async function applyCapture(
  tx: DbExecutor,
  objects: RawObjects,
  {
    tenantId,
    siteId,
    id,
    receivedAt,
  }: { tenantId: string; siteId: string; id: string; receivedAt: Date },
  capture: SiteCapturePayload,
  bytes: Buffer | null,
) {
  // Never over another capture's object: a key central already holds under another id is refused.
  const holder = await tx.execute<{ id: string }>(sql`
    select id from captures where tenant_id = ${tenantId} and image_key = ${capture.image_key}
      and id <> ${id} limit 1`);
  if (holder.rows.length > 0)
    throw new AppError(
      'INVALID',
      `A capture fact's image_key is already another capture's at central (${holder.rows[0]!.id}).`,
    );
  // No object when the node no longer held it: the row is kept (what was read, what cites it),
  // its image is said to be gone (the fact's objects_missing, audited by the batch).
  if (bytes) await objects.put(capture.image_key, bytes);
  const { object: _object, objects_missing: _missing, ...row } = capture;
  const cited = await tx.execute<{ n: number }>(sql`
    select (
      select count(*) from entry_logs e,
        unnest(array[${ENTRY_IMAGE_COLUMNS_SQL}] || e.permit_image_keys) as k
      where e.tenant_id = ${tenantId} and e.site_id = ${siteId}
        and e.timestamp >= ${row.created_at}::timestamptz and k = ${row.image_key}
    )::int + (
      select count(*) from face_comparisons f
      where f.tenant_id = ${tenantId} and f.live_capture_id = ${id}
    )::int as n`);
  const citations = cited.rows[0]?.n ?? 0;
  await insertRow(tx, 'captures', {
    ...row,
    tenant_id: tenantId,
    id,
    citations,
    cited_at: citations > 0 ? receivedAt.toISOString() : null,
    expires_at: new Date(receivedAt.getTime() + UNCITED_WAIT_MS).toISOString(),
  });
}

/** A site fact citing captures by key (an entry's image fields) or by id (a live face photo). */
export async function citeSiteCaptures(
  tx: DbExecutor,
  tenantId: string,
  { keys = [], ids = [] }: { keys?: readonly unknown[]; ids?: readonly (string | null)[] },
  now: Date,
) {
  const counts = new Map<string, number>();
  for (const key of keys)
    if (typeof key === 'string' && isCaptureKey(key)) counts.set(key, (counts.get(key) ?? 0) + 1);
  for (const [key, count] of counts)
    await tx.execute(sql`update captures set citations = citations + ${count},
      cited_at = coalesce(cited_at, ${now.toISOString()}::timestamptz)
      where tenant_id = ${tenantId} and image_key = ${key}`);
  for (const id of ids)
    if (id)
      await tx.execute(sql`update captures set citations = citations + 1,
        cited_at = coalesce(cited_at, ${now.toISOString()}::timestamptz)
        where tenant_id = ${tenantId} and id = ${id}`);
}

export async function applyFaceComparison(
  tx: DbExecutor,
  { tenantId, id, receivedAt }: { tenantId: string; id: string; receivedAt: Date },
  comparison: SiteFaceComparisonPayload,
) {
  // The entry that claimed it may have arrived first (another stream): it names the comparison.
  let usedBy = comparison.used_by_entry_id ?? null;
  if (!usedBy) {
    const claimed = await tx.execute<{ id: string }>(sql`
      select id from site_sync_events
      where tenant_id = ${tenantId} and kind = 'entry' and payload->>'face_comparison_id' = ${id}
      limit 1`);
    usedBy = claimed.rows[0]?.id ?? null;
  }
  if (usedBy) {
    const taken = await tx.execute(sql`select 1 from face_comparisons
      where tenant_id = ${tenantId} and used_by_entry_id = ${usedBy} and id <> ${id}`);
    if (taken.rows.length > 0) usedBy = null;
  }
  const inserted = await insertRow(tx, 'face_comparisons', {
    ...comparison,
    tenant_id: tenantId,
    id,
    used_by_entry_id: usedBy,
  });
  if (inserted)
    await citeSiteCaptures(tx, tenantId, { ids: [comparison.live_capture_id ?? null] }, receivedAt);
}

/** An entry naming the comparison it claimed: link the two when the comparison is already here. */
export async function linkFaceComparison(
  tx: DbExecutor,
  tenantId: string,
  entryId: string,
  comparisonId: string,
) {
  await tx.execute(sql`update face_comparisons set used_by_entry_id = ${entryId}
    where tenant_id = ${tenantId} and id = ${comparisonId} and used_by_entry_id is null
      and not exists (select 1 from face_comparisons other
        where other.tenant_id = ${tenantId} and other.used_by_entry_id = ${entryId})`);
}

export async function applyCorrection(
  tx: DbExecutor,
  { tenantId, id }: { tenantId: string; id: string },
  correction: SiteCorrectionPayload,
) {
  await insertRow(tx, 'reading_corrections', { ...correction, tenant_id: tenantId, id });
}

/**
 * An audit event keeps the site's time (`occurred_at`) and says where it came from in its
 * details (`siteSync`: the site, when central received it); its sealed details stay sealed.
 */
export async function applyAudit(
  tx: DbExecutor,
  {
    tenantId,
    id,
    siteId,
    receivedAt,
  }: { tenantId: string; id: string; siteId: string; receivedAt: Date },
  event: SiteAuditPayload,
) {
  await insertRow(tx, 'audit_events', {
    ...event,
    tenant_id: tenantId,
    id,
    details: {
      ...(event.details ?? {}),
      siteSync: {
        siteId,
        siteRecordedAt: event.occurred_at,
        centralReceivedAt: receivedAt.toISOString(),
      },
    },
  });
}

/** Every image key an entry names: its image fields and its permits. */
export function entryImageKeys(entry: Record<string, unknown>): string[] {
  const permits: unknown[] = Array.isArray(entry.permit_image_keys)
    ? (entry.permit_image_keys as unknown[])
    : [];
  return [...SITE_ENTRY_IMAGE_FIELDS.map((field) => entry[field]), ...permits].filter(
    (key): key is string => typeof key === 'string' && key.length > 0,
  );
}

/**
 * What an entry fact carries beside its row: inline images, the documents it cites, and the keys
 * of the objects the node sent before it on their own (`uploaded`, already in storage).
 */
export type EntryAttachments = {
  objects: [string, Buffer][];
  documents: SiteDocument[];
  uploaded: string[];
};

/** A non-capture storage key of the tenant: what an entry's (or a document's) object is under. */
export function isEntryObjectKey(tenantId: string, key: string) {
  return isStorageKey(key) && !isCaptureKey(key) && key.startsWith(`${tenantId}/`);
}

/**
 * The entry's inline objects and documents, checked before anything is written (a bad one is a
 * 400 for the batch): each object is a sealed object under a non-capture storage key of the
 * token's tenant that the entry (or the document carrying it) names.
 */
export function entryAttachments(tenantId: string, entry: SiteEntryPayload): EntryAttachments {
  const objects: [string, Buffer][] = [];
  const take = (key: string, base64: string, at: string) => {
    if (!isEntryObjectKey(tenantId, key))
      throw new SiteFactError(`${at}: ${key} is not an image key of this tenant (not a capture's)`);
    const bytes = Buffer.from(base64, 'base64');
    if (!isSealedObject(bytes))
      throw new SiteFactError(`${at}: not a sealed object (the site seals with the tenant's key)`);
    objects.push([key, bytes]);
  };
  const named = new Set(entryImageKeys(entry));
  for (const [key, base64] of Object.entries(entry.objects ?? {})) {
    if (!named.has(key))
      throw new SiteFactError(`payload.objects: ${key} is not one of the entry's images`);
    take(key, base64, 'payload.objects');
  }
  const documents = entry.documents ?? [];
  for (const [index, document] of documents.entries()) {
    if (document.object === undefined) continue;
    const key = document.row.image_key;
    if (!key) throw new SiteFactError(`payload.documents.${index}.object: the row names no image`);
    take(key, document.object, `payload.documents.${index}.object`);
  }
  const documentKeys = new Set(documents.map((document) => document.row.image_key));
  const uploaded = entry.objects_uploaded ?? [];
  for (const key of uploaded) {
    if (!named.has(key) && !documentKeys.has(key))
      throw new SiteFactError(
        `payload.objects_uploaded: ${key} is not one of the entry's or its documents' images`,
      );
    if (!isEntryObjectKey(tenantId, key))
      throw new SiteFactError(
        `payload.objects_uploaded: ${key} is not an image key of this tenant (not a capture's)`,
      );
  }
  return { objects, documents, uploaded };
}

/** What central keeps of an entry fact: its objects as digests, not bytes. */
export function storedEntryPayload(payload: Record<string, unknown>) {
  const digest = (base64: unknown) => {
    const bytes = Buffer.from(String(base64), 'base64');
    return { sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length };
  };
  const objects = payload.objects as Record<string, string> | undefined;
  const documents = payload.documents as Record<string, unknown>[] | undefined;
  return {
    ...payload,
    ...(objects
      ? {
          objects: Object.fromEntries(
            Object.entries(objects).map(([key, value]) => [key, digest(value)]),
          ),
        }
      : {}),
    ...(documents
      ? {
          documents: documents.map(({ object, ...document }) =>
            object === undefined ? document : { ...document, object: digest(object) },
          ),
        }
      : {}),
  };
}

/** The entry's document id columns and the table each names (the node sends, central applies). */
export const ENTRY_DOCUMENT_COLUMNS = [
  ['vehicle_licence_disc_id', 'licence_discs'],
  ['identity_document_id', 'identity_documents'],
  ['drivers_licence_id', 'drivers_licences'],
  ['passport_record_id', 'passports'],
  ['weighbridge_ticket_id', 'weighbridge_tickets'],
] as const;

async function documentHeld(tx: DbExecutor, tenantId: string, table: string, id: unknown) {
  if (typeof id !== 'string') return false;
  const found = await tx.execute(
    sql`select 1 from ${sql.identifier(table)} where tenant_id = ${tenantId} and id = ${id}::uuid`,
  );
  return found.rows.length > 0;
}

/**
 * Stores the entry's inline objects and the documents it cites (each row once, by its id:
 * `on conflict do nothing`, so a licence cited by several entries is written by the first), and
 * answers the entry's document columns: the site's ids, each kept when central holds that
 * document, else null (never a reference to a row central does not have).
 */
export async function applyEntryAttachments(
  tx: DbExecutor,
  objects: RawObjects,
  tenantId: string,
  entry: SiteEntryPayload,
  attachments: EntryAttachments,
) {
  // Sent on their own before the fact (POST /api/site-sync/objects): central must hold them.
  for (const key of attachments.uploaded)
    if (!(await objects.has(key)))
      throw new AppError(
        'INVALID',
        `payload.objects_uploaded: central holds no object ${key}; send it (POST /api/site-sync/objects) first.`,
      );
  for (const [index, document] of attachments.documents.entries()) {
    try {
      await insertRow(tx, document.table, { ...document.row, tenant_id: tenantId });
    } catch (error) {
      // A row central's table refuses (a missing column, a bad value): the batch's 400.
      const cause = findPgError(error) as { message?: string } | undefined;
      throw new AppError(
        'INVALID',
        `payload.documents.${index}: not a ${document.table} row (${cause?.message ?? 'refused'}).`,
        { cause: error },
      );
    }
  }
  // The objects after the rows: a refused row leaves none behind.
  for (const [key, bytes] of attachments.objects) await objects.put(key, bytes);
  const row = entry as Record<string, unknown>;
  const columns: Record<string, unknown> = {};
  for (const [column, table] of ENTRY_DOCUMENT_COLUMNS)
    columns[column] = (await documentHeld(tx, tenantId, table, row[column])) ? row[column] : null;
  const trailers = Array.isArray(row.trailer_licence_disc_ids) ? row.trailer_licence_disc_ids : [];
  const held: unknown[] = [];
  for (const id of trailers)
    if (await documentHeld(tx, tenantId, 'licence_discs', id)) held.push(id);
  columns.trailer_licence_disc_ids = held;
  return columns;
}
