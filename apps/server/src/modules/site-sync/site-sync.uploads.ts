import { sql } from 'drizzle-orm';

import type { AuditService } from '@/modules/audit';
import type { Database, DbExecutor } from '@/platform/db';
import type { ObjectStorage } from '@/platform/storage';

import { ENTRY_DOCUMENT_COLUMNS, SITE_ENTRY_IMAGE_FIELDS } from './site-facts-apply';
import { createSiteSyncRepository } from './site-sync.repository';

/** Uploads looked at per transaction, and tenants per lookup. */
const BATCH = 100;

/** The audit action of a sweep that deleted objects (one event per tenant and run). */
export const UPLOADS_SWEPT_ACTION = 'site.sync.uploads-swept';

/**
 * Records an object a node uploads that central does not hold yet (site_sync_uploads), or records
 * it again from now. Serialised with the sweep by the record's row: the sweep deletes a record only
 * while it is still due (`delete … returning`), so it either has finished with an older record
 * (record and object gone) before this runs, or finds this one too recent. Two uploads of one key
 * at once (two sites citing one image) leave one record.
 */
export async function recordUpload(
  tx: DbExecutor,
  upload: { tenantId: string; siteId: string; key: string; uploadedAt: Date },
) {
  await tx.execute(sql`
    delete from site_sync_uploads where tenant_id = ${upload.tenantId} and key = ${upload.key}`);
  await tx.execute(sql`
    insert into site_sync_uploads (tenant_id, key, site_id, uploaded_at)
    values (${upload.tenantId}, ${upload.key}, ${upload.siteId},
            ${upload.uploadedAt.toISOString()}::timestamptz)
    on conflict (tenant_id, key) do nothing`);
}

/**
 * An upload of an object central holds and keeps: its record, if it has one (an earlier upload
 * whose entry has not arrived yet), counts from now, so the sweep does not delete the object the
 * node has just been told central holds. An object central held on its own stays unrecorded.
 */
export async function recordUploadAgain(
  tx: DbExecutor,
  upload: { tenantId: string; siteId: string; key: string; uploadedAt: Date },
) {
  await tx.execute(sql`
    with earlier as (
      delete from site_sync_uploads where tenant_id = ${upload.tenantId} and key = ${upload.key}
      returning key)
    insert into site_sync_uploads (tenant_id, key, site_id, uploaded_at)
    select ${upload.tenantId}, key, ${upload.siteId},
           ${upload.uploadedAt.toISOString()}::timestamptz from earlier
    on conflict (tenant_id, key) do nothing`);
}

const ENTRY_IMAGES = sql.join(
  SITE_ENTRY_IMAGE_FIELDS.map((field) => sql`e.${sql.identifier(field)}`),
  sql`, `,
);
/** The tables whose `image_key` an entry's documents carry (the tables the entry cites). */
const DOCUMENT_TABLES = [...new Set(ENTRY_DOCUMENT_COLUMNS.map(([, table]) => table))];

/**
 * Whether a row of central names the key: an entry's image field or permit images, a document's
 * image, or a fact a node sent naming it among its `objects_uploaded`.
 */
async function isNamed(tx: DbExecutor, tenantId: string, key: string) {
  const documents = DOCUMENT_TABLES.map(
    (table) =>
      sql`exists (select 1 from ${sql.identifier(table)} d
                  where d.tenant_id = ${tenantId} and d.image_key = ${key})`,
  );
  const found = await tx.execute<{ named: boolean }>(sql`select (
      exists (select 1 from entry_logs e
              where e.tenant_id = ${tenantId}
                and (${key} = any(array[${ENTRY_IMAGES}]) or ${key} = any(e.permit_image_keys)))
      or ${sql.join(documents, sql` or `)}
      or exists (select 1 from site_sync_events f
                 where f.tenant_id = ${tenantId} and f.kind = 'entry'
                   and f.payload -> 'objects_uploaded' ? ${key})
    ) as named`);
  return found.rows[0]?.named === true;
}

/**
 * Issue 28 (ADR 0009, "Uploads named by nothing"): deletes the objects nodes uploaded on their
 * own (POST /api/site-sync/objects) that no row names `graceDays` after the upload: the entry
 * that was to name them never arrived. An upload that a row names is only forgotten (its object
 * is that row's now). Each upload is decided under its site's sync lock, so a batch of the same
 * site naming it cannot arrive between the check and the deletion. One audit event per tenant
 * and run, with the count, when anything was deleted. Returns the counts over every tenant.
 */
export async function sweepUnnamedUploads(
  database: Pick<Database, 'withTenant' | 'db'>,
  {
    objects,
    audit,
    now,
    graceDays,
  }: {
    objects: Pick<ObjectStorage, 'delete'>;
    audit: Pick<AuditService, 'record'>;
    now: Date;
    graceDays: number;
  },
): Promise<{ deleted: number; named: number }> {
  const before = new Date(now.getTime() - graceDays * 86_400_000);
  const total = { deleted: 0, named: 0 };
  const repository = createSiteSyncRepository();
  // A tenant is swept once per run (a sweep that fails part-way leaves the rest to the next run).
  const seen = new Set<string>();
  for (;;) {
    const found = (
      await database.db.execute<{ tenant_id: string }>(
        sql`select tenant_id from site_sync_uploads_due_tenants(${before.toISOString()}::timestamptz, ${BATCH}::int)`,
      )
    ).rows.map((row) => row.tenant_id);
    const tenants = found.filter((tenantId) => !seen.has(tenantId));
    if (tenants.length === 0) return total;
    for (const tenantId of tenants) {
      seen.add(tenantId);
      const counts = { deleted: 0, named: 0 };
      for (;;) {
        const done = await database.withTenant(tenantId, async (tx) => {
          const due = (
            await tx.execute<{ key: string; site_id: string }>(sql`
              select key, site_id::text as site_id from site_sync_uploads
              where tenant_id = ${tenantId} and uploaded_at < ${before.toISOString()}::timestamptz
              order by site_id, key limit ${BATCH}`)
          ).rows;
          const locked = new Set<string>();
          for (const upload of due) {
            if (!locked.has(upload.site_id)) {
              // The lock every events batch of the site holds.
              await repository.lockSite(tx, tenantId, upload.site_id);
              locked.add(upload.site_id);
            }
            // The record goes first, and only while still due: an upload recording the key again
            // (its row, `recordUpload`) waits for this transaction, or has made it too recent.
            const due = await tx.execute(sql`delete from site_sync_uploads
              where tenant_id = ${tenantId} and key = ${upload.key}
                and uploaded_at < ${before.toISOString()}::timestamptz
              returning key`);
            if (due.rows.length === 0) continue;
            if (await isNamed(tx, tenantId, upload.key)) counts.named++;
            else {
              await objects.delete(upload.key);
              counts.deleted++;
            }
          }
          if (due.length < BATCH && counts.deleted > 0)
            await audit.record(tx, {
              tenantId,
              actorUserId: null,
              action: UPLOADS_SWEPT_ACTION,
              targetType: 'storage',
              details: { deleted: counts.deleted, named: counts.named, graceDays },
            });
          return due.length;
        });
        if (done < BATCH) break;
      }
      total.deleted += counts.deleted;
      total.named += counts.named;
    }
  }
}
