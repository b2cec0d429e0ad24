import { and, eq, sql } from 'drizzle-orm';

import type { BarrierDeviceKind } from '@boomgate/contracts/barriers';

import type { DbExecutor } from '@/platform/db';

import { type GateAgentRow, gateAgents } from './barriers.table';

export type BarriersRepository = ReturnType<typeof createBarriersRepository>;

export function createBarriersRepository() {
  return {
    /**
     * Agents of every tenant last heard from at or before `before` whose outage has no
     * device_offline alert yet (barrier_offline_agents, for the offline scan job).
     */
    async listOfflineAgents(tx: DbExecutor, before: Date, limit: number) {
      const result = await tx.execute<{ tenant_id: string; gate_id: string; last_seen_at: string }>(
        sql`select tenant_id, gate_id, last_seen_at from barrier_offline_agents(${before.toISOString()}::timestamptz, ${limit}::int)`,
      );
      return result.rows.map((row) => ({
        tenantId: row.tenant_id,
        gateId: row.gate_id,
        lastSeenAt: new Date(row.last_seen_at),
      }));
    },

    /** Which tenant and gate a token hash belongs to (barrier_find_agent, before any tenant is known). */
    async findAgentByTokenHash(tx: DbExecutor, tokenHash: string) {
      const result = await tx.execute<{ tenant_id: string; gate_id: string }>(
        sql`select tenant_id, gate_id from barrier_find_agent(${tokenHash})`,
      );
      const [row] = result.rows;
      return row ? { tenantId: row.tenant_id, gateId: row.gate_id } : null;
    },

    findAgent: async (
      tx: DbExecutor,
      tenantId: string,
      gateId: string,
    ): Promise<GateAgentRow | null> =>
      (
        await tx
          .select()
          .from(gateAgents)
          .where(and(eq(gateAgents.tenantId, tenantId), eq(gateAgents.gateId, gateId)))
      )[0] ?? null,

    /** Creates the gate's agent, or gives it a new token (the old one stops working). */
    async saveToken(
      tx: DbExecutor,
      row: {
        tenantId: string;
        gateId: string;
        tokenHash: string;
        createdAt: Date;
        createdBy: string;
      },
    ) {
      await tx
        .insert(gateAgents)
        .values(row)
        .onConflictDoUpdate({
          target: [gateAgents.tenantId, gateAgents.gateId],
          set: { tokenHash: row.tokenHash, createdAt: row.createdAt, createdBy: row.createdBy },
        });
    },

    /** A heartbeat: last contact (and the device it reports); the agent is connected. */
    async touch(
      tx: DbExecutor,
      tenantId: string,
      gateId: string,
      seenAt: Date,
      device: BarrierDeviceKind | null,
    ) {
      await tx
        .update(gateAgents)
        .set(
          device
            ? { lastSeenAt: seenAt, device, connected: true }
            : { lastSeenAt: seenAt, connected: true },
        )
        .where(and(eq(gateAgents.tenantId, tenantId), eq(gateAgents.gateId, gateId)));
    },

    /**
     * A connection taken over (it becomes the gate's connection, whichever was before) or closed
     * (written only while the gate's row still names that connection: a late drop of an older
     * one changes nothing). Returns whether the row was written.
     */
    async recordConnection(
      tx: DbExecutor,
      tenantId: string,
      gateId: string,
      seenAt: Date,
      device: BarrierDeviceKind | null,
      { connected, connectionId }: { connected: boolean; connectionId: string },
    ): Promise<boolean> {
      const rows = await tx
        .update(gateAgents)
        .set({
          lastSeenAt: seenAt,
          connected,
          ...(device ? { device } : {}),
          ...(connected ? { connectionId } : {}),
        })
        .where(
          and(
            eq(gateAgents.tenantId, tenantId),
            eq(gateAgents.gateId, gateId),
            connected ? undefined : eq(gateAgents.connectionId, connectionId),
          ),
        )
        .returning({ gateId: gateAgents.gateId });
      return rows.length > 0;
    },
  };
}
