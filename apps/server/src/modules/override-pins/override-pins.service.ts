import { randomUUID } from 'node:crypto';

import {
  type IssueOverridePinBody,
  type IssuedOverridePin,
  OVERRIDE_PIN_DEFAULT_VALIDITY_MINUTES,
  type OverridePinSettings,
  type PinOverrideBody,
  type UpdateOverridePinSettings,
} from '@boomgate/contracts/override-pins';

import type { AuditService } from '@/modules/audit';
import type { EntryOverrides, EntryWithOverride } from '@/modules/entry-logs';
import type { CounterRule, RateLimitStore } from '@/modules/rate-limits';
import type { Actor } from '@/modules/sessions';
import type { Clock } from '@/platform/clock';
import type { Database, DbExecutor } from '@/platform/db';
import { AppError, isUniqueViolation } from '@/platform/errors';

import { createOverridePinHasher, generateOverridePin } from './override-pin';
import type { OverridePinsRepository } from './override-pins.repository';

/**
 * Guessing is throttled per guard and per organization: a million PINs against a handful of
 * attempts. Every attempt counts (a right PIN spends itself, so there is nothing to refund).
 */
export const PIN_ATTEMPTS_PER_USER: CounterRule = {
  limit: 5,
  windowMs: 15 * 60_000,
  backoff: { firstMs: 15 * 60_000, maxMs: 24 * 3_600_000 },
};
export const PIN_ATTEMPTS_PER_TENANT: CounterRule = { limit: 30, windowMs: 15 * 60_000 };

export type OverridePinsServiceDeps = {
  database: Pick<Database, 'withTenant'>;
  repository: OverridePinsRepository;
  audit: Pick<AuditService, 'record'>;
  clock: Clock;
  counters: Pick<RateLimitStore, 'hit'>;
  overrides: Pick<EntryOverrides, 'findOverridable' | 'overrideWithin'>;
  encryptionKey: Buffer;
};

export type OverridePinsService = ReturnType<typeof createOverridePinsService>;

export function createOverridePinsService({
  database,
  repository,
  audit,
  clock,
  counters,
  overrides,
  encryptionKey,
}: OverridePinsServiceDeps) {
  const hashPin = createOverridePinHasher(encryptionKey);

  async function settingsOf(tx: DbExecutor, tenantId: string): Promise<OverridePinSettings> {
    const row = await repository.findSettings(tx, tenantId);
    return {
      enabled: row?.enabled ?? false,
      validityMinutes: row?.validityMinutes ?? OVERRIDE_PIN_DEFAULT_VALIDITY_MINUTES,
    };
  }

  async function throttle(actor: Actor) {
    for (const [key, rule] of [
      [`override-pin:user:${actor.userId}`, PIN_ATTEMPTS_PER_USER],
      [`override-pin:tenant:${actor.tenantId}`, PIN_ATTEMPTS_PER_TENANT],
    ] as const) {
      const hit = await counters.hit(key, rule);
      if (!hit.allowed) {
        const minutes = Math.max(1, Math.ceil(hit.retryAfterSeconds / 60));
        throw new AppError(
          'RATE_LIMITED',
          `Too many PIN attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
          { retryAfterSeconds: hit.retryAfterSeconds },
        );
      }
    }
  }

  return {
    readSettings: (actor: Actor) =>
      database.withTenant(actor.tenantId, (tx) => settingsOf(tx, actor.tenantId)),

    updateSettings: (actor: Actor, patch: UpdateOverridePinSettings, ip?: string) =>
      database.withTenant(actor.tenantId, async (tx) => {
        const before = await settingsOf(tx, actor.tenantId);
        const after: OverridePinSettings = {
          enabled: patch.enabled ?? before.enabled,
          validityMinutes: patch.validityMinutes ?? before.validityMinutes,
        };
        await repository.saveSettings(tx, actor.tenantId, after, clock.now(), actor.userId);
        await audit.record(tx, {
          tenantId: actor.tenantId,
          actorUserId: actor.userId,
          action: 'settings.override_pins.updated',
          targetType: 'tenant',
          targetId: actor.tenantId,
          ip,
          details: { before, after },
        });
        return after;
      }),

    /** A one-time PIN, shown once; 409 while the organization has PINs turned off. */
    issue: (actor: Actor, body: IssueOverridePinBody, ip?: string) =>
      database.withTenant(actor.tenantId, async (tx): Promise<IssuedOverridePin> => {
        const settings = await settingsOf(tx, actor.tenantId);
        if (!settings.enabled)
          throw new AppError(
            'CONFLICT',
            'Supervisor PINs are turned off for this organization. Turn them on in Settings first.',
          );
        const issuedAt = clock.now();
        const expiresAt = new Date(issuedAt.getTime() + settings.validityMinutes * 60_000);
        const id = randomUUID();
        // Two unspent PINs never share a value (a unique index): draw again on the rare clash.
        for (let attempt = 0; ; attempt++) {
          const pin = generateOverridePin();
          try {
            // A savepoint keeps the transaction usable after a clash.
            await tx.transaction((savepoint) =>
              repository.insertPin(savepoint, {
                tenantId: actor.tenantId,
                id,
                pinHash: hashPin(actor.tenantId, pin),
                issuedAt,
                issuedBy: actor.userId,
                issuedByName: actor.fullName ?? actor.username,
                expiresAt,
              }),
            );
          } catch (error) {
            if (attempt < 5 && isUniqueViolation(error, 'override_pins_one_unspent_per_value'))
              continue;
            throw error;
          }
          await audit.record(tx, {
            tenantId: actor.tenantId,
            actorUserId: actor.userId,
            action: 'override_pin.issued',
            targetType: 'override_pin',
            targetId: id,
            ip,
            details: { expiresAt: expiresAt.toISOString(), note: body.note ?? null },
          });
          return { id, pin, expiresAt: expiresAt.toISOString() };
        }
      }),

    /**
     * A guard's override of one refused entry with a supervisor's PIN: the PIN is spent and the
     * override is in the supervisor's name, recording the guard. A wrong, spent or expired PIN
     * is 403 and audited (`entry.pin_override_failed`); attempts are throttled (429).
     */
    async overrideWithPin(
      actor: Actor,
      entryId: string,
      body: PinOverrideBody,
      ip?: string,
    ): Promise<EntryWithOverride> {
      try {
        return await database.withTenant(actor.tenantId, async (tx) => {
          await overrides.findOverridable(tx, actor.tenantId, entryId);
          const settings = await settingsOf(tx, actor.tenantId);
          if (!settings.enabled)
            throw new AppError(
              'FORBIDDEN',
              'Supervisor PINs are turned off for this organization. Ask a supervisor to override the entry.',
            );
          await throttle(actor);
          const now = clock.now();
          const pin = await repository.spendPin(
            tx,
            actor.tenantId,
            hashPin(actor.tenantId, body.pin),
            {
              at: now,
              by: actor.userId,
              entryId,
            },
          );
          if (!pin) throw new PinRefused();
          return overrides.overrideWithin(tx, actor, entryId, body.reason, {
            ip,
            authority: { userId: pin.issuedBy, name: pin.issuedByName, pinId: pin.id },
          });
        });
      } catch (error) {
        if (!(error instanceof PinRefused)) throw error;
        await database.withTenant(actor.tenantId, (tx) =>
          audit.record(tx, {
            tenantId: actor.tenantId,
            actorUserId: actor.userId,
            action: 'entry.pin_override_failed',
            targetType: 'entry_log',
            targetId: entryId,
            ip,
            details: { reason: body.reason },
          }),
        );
        throw new AppError('FORBIDDEN', 'The PIN is wrong, already used or expired.');
      }
    },
  };
}

/** A PIN that matched nothing: the transaction rolls back, then the attempt is audited. */
class PinRefused extends Error {}
