import { and, eq, sql } from 'drizzle-orm';

import type { BarrierDeviceKind } from '@boomgate/contracts/barriers';

import type { DbExecutor } from '@/platform/db';

import { type GateAgentRow, gateAgents } from './barriers.table';

export type BarriersRepository = ReturnType<typeof createBarriersRepository>;

export function createBarriersRepository() {
  return {
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

    async touch(
      tx: DbExecutor,
      tenantId: string,
      gateId: string,
      seenAt: Date,
      device: BarrierDeviceKind | null,
    ) {
      await tx
        .update(gateAgents)
        .set(device ? { lastSeenAt: seenAt, device } : { lastSeenAt: seenAt })
        .where(and(eq(gateAgents.tenantId, tenantId), eq(gateAgents.gateId, gateId)));
    },
  };
}
