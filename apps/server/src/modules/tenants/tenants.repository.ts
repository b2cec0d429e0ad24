import { eq } from 'drizzle-orm';

import { type DbExecutor, takeOne } from '@/platform/db';

import { type TenantRow, tenants } from './tenants.table';

export type TenantsRepository = ReturnType<typeof createTenantsRepository>;

/** Runs inside a tenant transaction: RLS shows only the current tenant's own row. */
export function createTenantsRepository() {
  return {
    async insert(tx: DbExecutor, tenant: { id: string; name: string }): Promise<TenantRow> {
      return takeOne(await tx.insert(tenants).values(tenant).returning());
    },
    async updateSettings(
      tx: DbExecutor,
      tenantId: string,
      patch: Partial<
        Pick<
          TenantRow,
          | 'biometricRetentionDays'
          | 'documentRetentionDays'
          | 'inductionValidityDays'
          | 'antispoofGating'
          | 'antispoofThreshold'
          | 'separationOfDuties'
          | 'maxApprovalValidityMonths'
          | 'requireMfaForAdmins'
          | 'requireMfaForEveryone'
          | 'offlineDecisions'
        >
      >,
    ): Promise<TenantRow | undefined> {
      const rows = await tx.update(tenants).set(patch).where(eq(tenants.id, tenantId)).returning();
      return rows[0];
    },
    async find(tx: DbExecutor, tenantId: string): Promise<TenantRow | undefined> {
      const rows = await tx.select().from(tenants).where(eq(tenants.id, tenantId)).limit(1);
      return rows[0];
    },
  };
}
