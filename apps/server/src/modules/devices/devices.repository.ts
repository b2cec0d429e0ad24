import { and, desc, eq } from 'drizzle-orm';

import type { DbExecutor } from '@/platform/db';

import { type GuardDeviceRow, guardDevices } from './devices.table';

export type DevicesRepository = ReturnType<typeof createDevicesRepository>;

export function createDevicesRepository() {
  return {
    findByKey: async (tx: DbExecutor, tenantId: string, deviceKey: string) =>
      (
        await tx
          .select()
          .from(guardDevices)
          .where(and(eq(guardDevices.tenantId, tenantId), eq(guardDevices.deviceKey, deviceKey)))
      )[0] ?? null,

    find: async (tx: DbExecutor, tenantId: string, id: string) =>
      (
        await tx
          .select()
          .from(guardDevices)
          .where(and(eq(guardDevices.tenantId, tenantId), eq(guardDevices.id, id)))
      )[0] ?? null,

    /**
     * Records a contact: a new device is added, a known one gets its last contact and user. A
     * revoked device is left as it is (the caller refuses it).
     */
    async touch(
      tx: DbExecutor,
      row: Pick<
        GuardDeviceRow,
        'tenantId' | 'id' | 'deviceKey' | 'label' | 'lastUserId' | 'lastUserName' | 'lastContactAt'
      >,
    ): Promise<GuardDeviceRow> {
      const [saved] = await tx
        .insert(guardDevices)
        .values({ ...row, firstSeenAt: row.lastContactAt })
        .onConflictDoUpdate({
          target: [guardDevices.tenantId, guardDevices.deviceKey],
          set: {
            lastContactAt: row.lastContactAt,
            lastUserId: row.lastUserId,
            lastUserName: row.lastUserName,
            ...(row.label ? { label: row.label } : {}),
          },
        })
        .returning();
      return saved as GuardDeviceRow;
    },

    list: (tx: DbExecutor, tenantId: string) =>
      tx
        .select()
        .from(guardDevices)
        .where(eq(guardDevices.tenantId, tenantId))
        .orderBy(desc(guardDevices.lastContactAt))
        .limit(1000),

    revoke: async (
      tx: DbExecutor,
      tenantId: string,
      id: string,
      by: { revokedAt: Date; revokedBy: string; revokedByName: string | null },
    ) =>
      (
        await tx
          .update(guardDevices)
          .set(by)
          .where(and(eq(guardDevices.tenantId, tenantId), eq(guardDevices.id, id)))
          .returning()
      )[0] ?? null,
  };
}
