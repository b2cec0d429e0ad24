import type { OcrType } from '@boomgate/contracts/ocr';
import { type Reading, ReadingSchema } from '@boomgate/contracts/readings';
import { sql } from 'drizzle-orm';

import { CAPTURE_KIND, type ImagesService, isCaptureKey } from '@/modules/images';
import type { Actor } from '@/modules/sessions';
import type { SiteFacts } from '@/modules/site-node';
import { drainInBatches } from '@/platform/batches';
import type { Clock } from '@/platform/clock';
import type { Database, DbExecutor } from '@/platform/db';
import { AppError } from '@/platform/errors';
import { newId } from '@/platform/ids';
import type { ObjectStorage } from '@/platform/storage';

import type { CapturesRepository } from './captures.repository';

/** Spec-free design (issue 14): a capture nobody cites is deleted a day after it was taken. */
export const CAPTURE_TTL_MS = 24 * 3_600_000;
const PURGE_BATCH = 200;

export type CapturesServiceDeps = {
  database: Pick<Database, 'withTenant' | 'db'>;
  repository: CapturesRepository;
  images: Pick<ImagesService, 'storeImage' | 'readImage'>;
  storage: Pick<ObjectStorage, 'delete'>;
  clock: Clock;
  siteFacts?: SiteFacts;
};

export type CapturesService = ReturnType<typeof createCapturesService>;

const notFound = () => new AppError('NOT_FOUND', 'Capture not found or expired.');

/** Occurrences per key: a record holding one capture in two fields cites it twice. */
function countKeys(keys: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  return counts;
}

export function createCapturesService({
  database,
  repository,
  images,
  storage,
  clock,
  siteFacts,
}: CapturesServiceDeps) {
  /** Cites captures for one record: each id once per field naming it; 404 for any not citable. */
  async function cite(tx: DbExecutor, actor: Actor, ids: readonly string[]): Promise<string[]> {
    const now = clock.now();
    const keys = new Map<string, string>();
    for (const [id, count] of countKeys(ids)) {
      const key = await repository.cite(tx, actor.tenantId, id, count, now);
      if (!key) throw notFound();
      keys.set(id, key);
    }
    return ids.map((id) => keys.get(id) ?? '');
  }

  return {
    /**
     * Stores an uploaded image as a capture (checked like every upload; re-encoded unless it is a
     * JPEG with no metadata, which `read` decodes anyway) while `read` runs on the original bytes,
     * then records it with the reading. The object is removed again if the read or the row fails.
     */
    async create<Result>(
      actor: Actor,
      { image, type }: { image: string; type: OcrType },
      read: () => Promise<{ reading: Reading | null; result: Result }>,
    ): Promise<{ captureId: string; result: Result }> {
      const [stored, outcome] = await Promise.allSettled([
        images.storeImage(actor.tenantId, CAPTURE_KIND, image, { decodedByReader: true }),
        read(),
      ]);
      if (outcome.status === 'rejected' || stored.status === 'rejected') {
        if (stored.status === 'fulfilled') await storage.delete(stored.value).catch(() => {});
        throw outcome.status === 'rejected'
          ? outcome.reason
          : (stored as PromiseRejectedResult).reason;
      }
      const id = newId();
      const now = clock.now();
      try {
        await database.withTenant(actor.tenantId, async (tx) => {
          await repository.insert(tx, {
            tenantId: actor.tenantId,
            id,
            createdAt: now,
            createdBy: actor.userId,
            type,
            imageKey: stored.value,
            reading: outcome.value.reading ? ReadingSchema.parse(outcome.value.reading) : null,
            expiresAt: new Date(now.getTime() + CAPTURE_TTL_MS),
          });
          // Issue 28 (site node): the capture and its stored object go to central.
          await siteFacts?.record(tx, {
            tenantId: actor.tenantId,
            gateId: null,
            kind: 'capture',
            recordedAt: now,
            rowId: id,
          });
        });
      } catch (error) {
        await storage.delete(stored.value).catch(() => {});
        throw error;
      }
      return { captureId: id, result: outcome.value.result };
    },

    /**
     * The image key a record keeps for one image field: the image just stored from the request,
     * or the cited capture's key (the capture is then cited, so it outlives its 24 hours). Every
     * route taking an image calls this inside its transaction. Unknown, expired or another
     * tenant's capture: 404.
     */
    async resolveImage(
      tx: DbExecutor,
      actor: Actor,
      { image, captureId }: { image: string | null; captureId?: string | null },
    ): Promise<string | null> {
      if (image !== null || !captureId) return image;
      const [key] = await cite(tx, actor, [captureId]);
      return key ?? null;
    },

    /** A list field (`permitImages` + `permitImagesCaptureIds`): stored images, then captures. */
    async resolveImages(
      tx: DbExecutor,
      actor: Actor,
      { images: stored, captureIds }: { images: string[]; captureIds: readonly string[] },
    ): Promise<string[]> {
      return [...stored, ...(await cite(tx, actor, captureIds))];
    },

    /**
     * The keys of captures a record cites by id (face comparisons), for `release` when the
     * record lets them go: one key per id.
     */
    imageKeysOf: (tx: DbExecutor, tenantId: string, captureIds: readonly string[]) =>
      repository.imageKeys(tx, tenantId, captureIds),

    /**
     * The bytes of a citable capture (a face to compare, a driver photo to enrol). Reading does
     * not cite: the record that keeps the image cites it with `resolveImage`.
     */
    async readCapture(actor: Actor, captureId: string): Promise<Buffer> {
      const row = await database.withTenant(actor.tenantId, (tx) =>
        repository.findCitable(tx, actor.tenantId, captureId, clock.now()),
      );
      if (!row) throw notFound();
      return images.readImage(actor, row.imageKey);
    },

    /** A capture's type and reading, in the caller's transaction; undefined when unknown. */
    findReading: (tx: DbExecutor, tenantId: string, captureId: string) =>
      repository.find(tx, tenantId, captureId),

    /** The captures behind a record's image keys (the entry detail's evidence). */
    findByImageKeys: (tx: DbExecutor, tenantId: string, imageKeys: readonly string[]) =>
      repository.findByImageKeys(tx, tenantId, imageKeys.filter(isCaptureKey)),

    /**
     * A record's image keys are gone (retention, erasure): capture keys among them lose those
     * citations, and a capture left with none is deleted with its object, inside the caller's
     * transaction (a storage failure rolls it back). Other keys are returned for the caller to
     * delete as before.
     */
    async release(tx: DbExecutor, tenantId: string, keys: readonly string[]): Promise<string[]> {
      const others = keys.filter((key) => !isCaptureKey(key));
      const now = clock.now();
      for (const [key, count] of countKeys(keys.filter(isCaptureKey))) {
        const row = await repository.release(tx, tenantId, key, count);
        if (!row || row.citations > 0) continue;
        await repository.expireNow(tx, tenantId, [row.id], now);
        for (const gone of await repository.deleteUncited(tx, tenantId, [row.id], now))
          await storage.delete(gone);
      }
      return others;
    },

    /**
     * The retention job: captures nobody cited within 24 hours (by the app clock) are deleted
     * with their objects, tenant by tenant. Returns how many; a second run finds none.
     */
    purgeExpired: (batch = PURGE_BATCH): Promise<number> =>
      drainInBatches({
        batch,
        nextBatch: async (limit) =>
          (
            await database.db.execute<{ tenant_id: string; capture_id: string }>(
              sql`select * from captures_due_purge(${clock.now().toISOString()}::timestamptz, ${limit}::int)`,
            )
          ).rows,
        handle: ({ tenant_id: tenantId, capture_id: id }) =>
          database.withTenant(tenantId, async (tx) => {
            const gone = await repository.deleteUncited(tx, tenantId, [id], clock.now());
            for (const key of gone) await storage.delete(key);
            return gone.length > 0;
          }),
      }),
  };
}
