import { createHash } from 'node:crypto';

import { sql } from 'drizzle-orm';

import { isCaptureKey } from '@/modules/images';
import type { DbExecutor } from '@/platform/db';
import { AppError } from '@/platform/errors';
import { isSealedObject } from '@/platform/sealing';
import { isStorageKey } from '@/platform/storage';

import type {
  SiteAuditPayload,
  SiteCapturePayload,
  SiteCorrectionPayload,
  SiteFaceComparisonPayload,
} from './site-facts';

/**
 * Issue 28 (ADR 0009): central's side of the site facts that are rows of the site's own tables
 * (captures, face comparisons, corrections, audit events). Each is inserted under the fact's id
 * into central's table of the same name, so the entry detail and the audit log show them as
 * central's own; `on conflict do nothing` keeps a resent fact from applying twice.
 */

/** The stored objects as they are (the bytes arrive sealed with the tenant's data key). */
export type RawObjects = { put(key: string, bytes: Uint8Array): Promise<void> };

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

/** The capture's object, decoded and checked before anything is written. */
export function captureObject(tenantId: string, capture: SiteCapturePayload): Buffer {
  const key = capture.image_key;
  if (!isStorageKey(key) || !isCaptureKey(key) || !key.startsWith(`${tenantId}/`))
    throw new SiteFactError("payload.image_key: not a capture's storage key of this tenant");
  const bytes = Buffer.from(capture.object, 'base64');
  if (!isSealedObject(bytes))
    throw new SiteFactError(
      "payload.object: not a sealed object (the site seals with the tenant's key)",
    );
  return bytes;
}

/** What central keeps of a capture fact: the row, with the object's digest instead of its bytes. */
export function storedCapturePayload(payload: Record<string, unknown>, bytes: Buffer) {
  const { object: _object, ...row } = payload;
  return {
    ...row,
    object_sha256: createHash('sha256').update(bytes).digest('hex'),
    object_bytes: bytes.length,
  };
}

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
  bytes: Buffer,
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
  await objects.put(capture.image_key, bytes);
  const { object: _object, ...row } = capture;
  const cited = await tx.execute<{ n: number }>(sql`
    select (
      select count(*) from entry_logs e,
        unnest(array[e.plate_image_key, e.vehicle_disk_image_key, e.driver_face_image_key,
                     e.driver_license_image_key, e.passport_image_key] || e.permit_image_keys) as k
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
