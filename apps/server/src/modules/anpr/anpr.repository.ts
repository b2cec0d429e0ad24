import { and, desc, eq, inArray, sql } from 'drizzle-orm';

import { type DbExecutor, takeOne } from '@/platform/db';

import { type AnprCameraRow, anprCameras } from './anpr.table';

export type AnprRepository = ReturnType<typeof createAnprRepository>;

export function createAnprRepository() {
  return {
    /**
     * Issue 22: cameras silent since `before` (and for less than a day) with no device_offline alert
     * for that silence yet, across tenants: the SECURITY DEFINER anpr_offline_cameras.
     */
    async listOfflineCameras(tx: DbExecutor, before: Date, limit: number) {
      const result = await tx.execute<{
        tenant_id: string;
        camera_id: string;
        name: string;
        last_seen_at: string;
      }>(
        sql`select tenant_id, camera_id, name, last_seen_at from anpr_offline_cameras(${before.toISOString()}::timestamptz, ${limit}::int)`,
      );
      return result.rows.map((row) => ({
        tenantId: row.tenant_id,
        cameraId: row.camera_id,
        name: row.name,
        lastSeenAt: new Date(row.last_seen_at),
      }));
    },

    /** Cross-tenant by necessity (the token names the tenant): the SECURITY DEFINER anpr_find_camera. */
    async findCameraByTokenHash(tx: DbExecutor, tokenHash: string) {
      const result = await tx.execute<{ tenant_id: string; camera_id: string }>(
        sql`select tenant_id, camera_id from anpr_find_camera(${tokenHash})`,
      );
      const [row] = result.rows;
      return row && { tenantId: row.tenant_id, cameraId: row.camera_id };
    },

    insert: async (tx: DbExecutor, row: typeof anprCameras.$inferInsert): Promise<AnprCameraRow> =>
      takeOne(await tx.insert(anprCameras).values(row).returning()),

    /** The tenant's cameras, or (siteIds) those at these sites. */
    list: (
      tx: DbExecutor,
      tenantId: string,
      siteIds: readonly string[] | null = null,
    ): Promise<AnprCameraRow[]> =>
      tx
        .select()
        .from(anprCameras)
        .where(
          and(
            eq(anprCameras.tenantId, tenantId),
            siteIds === null ? undefined : inArray(anprCameras.siteId, [...siteIds]),
          ),
        )
        .orderBy(desc(anprCameras.createdAt)),

    update: async (
      tx: DbExecutor,
      tenantId: string,
      id: string,
      patch: Partial<Pick<AnprCameraRow, 'name' | 'siteId' | 'gateId'>>,
    ): Promise<AnprCameraRow | undefined> =>
      (
        await tx
          .update(anprCameras)
          .set(patch)
          .where(and(eq(anprCameras.tenantId, tenantId), eq(anprCameras.id, id)))
          .returning()
      )[0],

    async findById(tx: DbExecutor, tenantId: string, id: string) {
      const rows = await tx
        .select()
        .from(anprCameras)
        .where(and(eq(anprCameras.tenantId, tenantId), eq(anprCameras.id, id)))
        .limit(1);
      return rows[0];
    },

    async delete(tx: DbExecutor, tenantId: string, id: string) {
      const rows = await tx
        .delete(anprCameras)
        .where(and(eq(anprCameras.tenantId, tenantId), eq(anprCameras.id, id)))
        .returning({ id: anprCameras.id });
      return rows.length === 1;
    },

    touch: async (tx: DbExecutor, tenantId: string, id: string, at: Date) => {
      await tx
        .update(anprCameras)
        .set({ lastSeenAt: at })
        .where(and(eq(anprCameras.tenantId, tenantId), eq(anprCameras.id, id)));
    },
  };
}
