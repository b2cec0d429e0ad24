import { createHash } from 'node:crypto';

import { sql } from 'drizzle-orm';

import { isCaptureKey } from '@/modules/images';
import type { DbExecutor } from '@/platform/db';
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

export async function applyCapture(
  tx: DbExecutor,
  objects: RawObjects,
  { tenantId, id, receivedAt }: { tenantId: string; id: string; receivedAt: Date },
  capture: SiteCapturePayload,
  bytes: Buffer,
) {
  await objects.put(capture.image_key, bytes);
  const { object: _object, ...row } = capture;
  // Cited once by its site: central keeps it like a cited capture (the site's records cite it by
  // key) until a retention or erasure releases the key, never purged as an uncited upload.
  await insertRow(tx, 'captures', {
    ...row,
    tenant_id: tenantId,
    id,
    citations: 1,
    cited_at: receivedAt.toISOString(),
    expires_at: row.created_at,
  });
}

export async function applyFaceComparison(
  tx: DbExecutor,
  { tenantId, id }: { tenantId: string; id: string },
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
  await insertRow(tx, 'face_comparisons', {
    ...comparison,
    tenant_id: tenantId,
    id,
    used_by_entry_id: usedBy,
  });
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
