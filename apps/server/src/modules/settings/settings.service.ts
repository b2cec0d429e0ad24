import type { TenantSettings, UpdateTenantSettings } from '@boomgate/contracts/settings';

import type { AuditService } from '@/modules/audit';
import type { Actor } from '@/modules/sessions';
import type { TenantRow, TenantsRepository } from '@/modules/tenants';
import type { Database, DbExecutor } from '@/platform/db';
import { AppError } from '@/platform/errors';

export type SettingsServiceDeps = {
  database: Pick<Database, 'withTenant'>;
  tenants: Pick<TenantsRepository, 'find' | 'updateSettings'>;
  audit: Pick<AuditService, 'record'>;
};

export type SettingsService = ReturnType<typeof createSettingsService>;

const toSettings = (row: TenantRow): TenantSettings => ({
  biometricRetentionDays: row.biometricRetentionDays,
  documentRetentionDays: row.documentRetentionDays,
  inductionValidityDays: row.inductionValidityDays,
  antispoofGating: row.antispoofGating,
  antispoofThreshold: Math.round(row.antispoofThreshold * 100) / 100,
  separationOfDuties: row.separationOfDuties,
  maxApprovalValidityMonths: row.maxApprovalValidityMonths,
  requireMfaForAdmins: row.requireMfaForAdmins,
  requireMfaForEveryone: row.requireMfaForEveryone,
  offlineDecisions: row.offlineDecisions === 'record_only' ? 'record_only' : 'grant',
});

/** The organization's own settings: retention periods, induction validity, anti-spoofing gate. */
export function createSettingsService({ database, tenants, audit }: SettingsServiceDeps) {
  async function settingsOf(tx: DbExecutor, tenantId: string): Promise<TenantSettings> {
    const row = await tenants.find(tx, tenantId);
    // RLS shows a session its own tenant only, so a missing row is a broken session, not input.
    if (!row) throw new AppError('NOT_FOUND', 'Organization not found');
    return toSettings(row);
  }

  return {
    /** For other modules, inside their tenant transaction. */
    settingsOf,

    read: (actor: Actor) =>
      database.withTenant(actor.tenantId, (tx) => settingsOf(tx, actor.tenantId)),

    update: (actor: Actor, patch: UpdateTenantSettings, ip?: string) =>
      database.withTenant(actor.tenantId, async (tx) => {
        const before = await settingsOf(tx, actor.tenantId);
        const row = await tenants.updateSettings(tx, actor.tenantId, patch);
        if (!row) throw new AppError('NOT_FOUND', 'Organization not found');
        const after = toSettings(row);
        await audit.record(tx, {
          tenantId: actor.tenantId,
          actorUserId: actor.userId,
          action: 'settings.updated',
          targetType: 'tenant',
          targetId: actor.tenantId,
          ip,
          details: { before, after },
        });
        return after;
      }),
  };
}
