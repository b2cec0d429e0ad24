import { and, eq, gt, inArray, or, sql } from 'drizzle-orm';

import type { DbExecutor } from '@/platform/db';

import { captures } from './captures.table';

export type CapturesRepository = ReturnType<typeof createCapturesRepository>;

export function createCapturesRepository() {
  return {
    insert: async (tx: DbExecutor, row: typeof captures.$inferInsert) => {
      await tx.insert(captures).values(row);
    },

    /** Any capture of the tenant (issue 15: its reading, for a correction or the entry detail). */
    find: async (tx: DbExecutor, tenantId: string, id: string) =>
      (
        await tx
          .select({ id: captures.id, type: captures.type, reading: captures.reading })
          .from(captures)
          .where(and(eq(captures.tenantId, tenantId), eq(captures.id, id)))
      )[0],

    /** The captures holding these image keys (issue 15: an entry's evidence). */
    findByImageKeys: async (tx: DbExecutor, tenantId: string, imageKeys: readonly string[]) =>
      imageKeys.length === 0
        ? []
        : tx
            .select({
              id: captures.id,
              type: captures.type,
              imageKey: captures.imageKey,
              reading: captures.reading,
              createdAt: captures.createdAt,
            })
            .from(captures)
            .where(
              and(eq(captures.tenantId, tenantId), inArray(captures.imageKey, [...imageKeys])),
            ),

    /** A capture that may still be cited: cited before, or not yet expired. */
    findCitable: async (tx: DbExecutor, tenantId: string, id: string, now: Date) =>
      (
        await tx
          .select()
          .from(captures)
          .where(
            and(
              eq(captures.tenantId, tenantId),
              eq(captures.id, id),
              or(gt(captures.citations, 0), gt(captures.expiresAt, now)),
            ),
          )
      )[0],

    /**
     * Adds `count` citations to a citable capture and returns its image key; undefined when the
     * capture is unknown, expired or another tenant's (row-level security hides those).
     */
    cite: async (tx: DbExecutor, tenantId: string, id: string, count: number, now: Date) =>
      (
        await tx
          .update(captures)
          .set({
            citations: sql`${captures.citations} + ${count}`,
            citedAt: sql`coalesce(${captures.citedAt}, ${now.toISOString()}::timestamptz)`,
          })
          .where(
            and(
              eq(captures.tenantId, tenantId),
              eq(captures.id, id),
              or(gt(captures.citations, 0), gt(captures.expiresAt, now)),
            ),
          )
          .returning({ imageKey: captures.imageKey })
      )[0]?.imageKey,

    /** The image keys of captures, by id (unknown ids give nothing). */
    imageKeys: async (tx: DbExecutor, tenantId: string, ids: readonly string[]) =>
      ids.length === 0
        ? []
        : (
            await tx
              .select({ imageKey: captures.imageKey })
              .from(captures)
              .where(and(eq(captures.tenantId, tenantId), inArray(captures.id, [...ids])))
          ).map((row) => row.imageKey),

    /** Takes `count` citations off the capture holding the key; returns its row after. */
    release: async (tx: DbExecutor, tenantId: string, imageKey: string, count: number) =>
      (
        await tx
          .update(captures)
          .set({ citations: sql`greatest(${captures.citations} - ${count}, 0)` })
          .where(and(eq(captures.tenantId, tenantId), eq(captures.imageKey, imageKey)))
          .returning({ id: captures.id, citations: captures.citations })
      )[0],

    /** Deletes captures no record cites any more and that are expired; returns their keys. */
    deleteUncited: async (tx: DbExecutor, tenantId: string, ids: string[], now: Date) =>
      (
        await tx
          .delete(captures)
          .where(
            and(
              eq(captures.tenantId, tenantId),
              inArray(captures.id, ids),
              eq(captures.citations, 0),
              sql`${captures.expiresAt} <= ${now.toISOString()}::timestamptz`,
            ),
          )
          .returning({ imageKey: captures.imageKey })
      ).map((row) => row.imageKey),

    /** Ends a capture now (its last citation was released, or its subject erased). */
    expireNow: async (tx: DbExecutor, tenantId: string, ids: string[], now: Date) => {
      if (ids.length === 0) return;
      await tx
        .update(captures)
        .set({ expiresAt: sql`least(${captures.expiresAt}, ${now.toISOString()}::timestamptz)` })
        .where(and(eq(captures.tenantId, tenantId), inArray(captures.id, ids)));
    },
  };
}
