import { and, eq } from 'drizzle-orm';

import type { AuditService } from '@/modules/audit';
import type { Actor } from '@/modules/sessions';
import type { Clock } from '@/platform/clock';
import type { Database, DbExecutor } from '@/platform/db';
import { AppError } from '@/platform/errors';

import type { EntryLogRow } from './entry-logs.table';
import { entryLogs } from './entry-logs.table';
import type { EntrySealing } from './entry-sealing';
import { type EntryOverrideRow, entryOverrides } from './entry-overrides.table';

/** An entry as the API shows it: the row with its override, if any (issue 21). */
export type EntryWithOverride = EntryLogRow & { override: EntryOverrideRow | null };

/**
 * Issue 21: a supervisor (tenant_admin, back_office) grants one refused entry with a reason, so
 * nobody opens the barrier by hand around the system. Audited (`entry.overridden`, with the
 * refusal it overrode); an entry is overridden at most once; a granted entry cannot be.
 */
/** Who an override is in the name of, when not the actor: the supervisor who issued a PIN. */
export type OverrideAuthority = { userId: string | null; name: string | null; pinId: string };

export function createEntryOverrides({
  database,
  audit,
  clock,
  sealing,
}: {
  database: Pick<Database, 'withTenant'>;
  audit: Pick<AuditService, 'record'>;
  clock: Clock;
  /** Issue 26: the entry is returned with its numbers opened. */
  sealing: Pick<EntrySealing, 'open'>;
}) {
  /** The entry, if a supervisor may override it: 404 when unknown, 409 when granted. */
  async function findOverridable(tx: DbExecutor, tenantId: string, entryId: string) {
    const [entry] = await tx
      .select()
      .from(entryLogs)
      .where(and(eq(entryLogs.tenantId, tenantId), eq(entryLogs.id, entryId)))
      .limit(1);
    if (!entry) throw new AppError('NOT_FOUND', 'Entry not found');
    if (entry.entryGranted)
      throw new AppError('CONFLICT', 'This entry was granted: there is nothing to override.');
    return sealing.open(tenantId, entry);
  }

  /**
   * Inside the caller's transaction. With `authority` (a guard's override with a supervisor's
   * PIN) the override is in the supervisor's name and records the guard who entered the PIN.
   */
  async function overrideWithin(
    tx: DbExecutor,
    actor: Actor,
    entryId: string,
    reason: string,
    { ip, authority }: { ip?: string; authority?: OverrideAuthority } = {},
  ): Promise<EntryWithOverride> {
    const entry = await findOverridable(tx, actor.tenantId, entryId);
    const actorName = actor.fullName ?? actor.username;
    const [override] = await tx
      .insert(entryOverrides)
      .values({
        tenantId: actor.tenantId,
        entryId,
        reason,
        overriddenAt: clock.now(),
        overriddenBy: authority ? authority.userId : actor.userId,
        overriddenByName: authority ? authority.name : actorName,
        enteredBy: authority ? actor.userId : null,
        enteredByName: authority ? actorName : null,
      })
      .onConflictDoNothing()
      .returning();
    if (!override) throw new AppError('CONFLICT', 'This entry was already overridden.');
    await audit.record(tx, {
      tenantId: actor.tenantId,
      actorUserId: actor.userId,
      action: 'entry.overridden',
      targetType: 'entry_log',
      targetId: entryId,
      ip,
      details: {
        reason,
        refusalReason: entry.refusalReason,
        plateNumber: entry.plateNumber,
        ...(authority && {
          viaPin: true,
          pinId: authority.pinId,
          supervisorUserId: authority.userId,
          supervisorName: authority.name,
        }),
      },
    });
    return { ...entry, override };
  }

  return {
    findOverridable,
    overrideWithin,
    override: (actor: Actor, entryId: string, reason: string, ip?: string) =>
      database.withTenant(actor.tenantId, (tx) =>
        overrideWithin(tx, actor, entryId, reason, { ip }),
      ),
  };
}

export type EntryOverrides = ReturnType<typeof createEntryOverrides>;
