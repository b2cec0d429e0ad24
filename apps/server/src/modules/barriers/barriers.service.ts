import { createHash } from 'node:crypto';

import type {
  BarrierDeviceKind,
  GateBarrierStatus,
  GateOpenOutcome,
  GateOpenReason,
} from '@boomgate/contracts/barriers';

import type { RaiseAlert } from '@/modules/alerts';
import type { AuditService } from '@/modules/audit';
import type { Actor } from '@/modules/sessions';
import { type GateRef, type SitesRepository, findGate } from '@/modules/sites';
import type { Clock } from '@/platform/clock';
import type { Database } from '@/platform/db';
import { AppError } from '@/platform/errors';
import { newId, newToken } from '@/platform/ids';
import { type NotifyChannel, createNotifyChannel } from '@/platform/notify-channel';

import { type AgentHub, type AgentIdentity, type CommandReply, createAgentHub } from './agent-hub';
import { type AgentRelay, BARRIER_NOTIFY_CHANNEL, createAgentRelay } from './agent-relay';
import type { BarriersRepository } from './barriers.repository';

export type BarrierSettings = {
  /** How often agents send heartbeats; two missed ones make the gate offline. */
  heartbeatIntervalMs: number;
  /** How long an open waits for the device's confirmation before reporting `not_opened`. */
  resultTimeoutMs: number;
  /** An agent silent this long raises a device_offline alert (the offline scan). */
  offlineAlertSeconds: number;
};

export type BarriersServiceDeps = {
  /** With `pool`, open commands reach agents connected to other API processes (LISTEN/NOTIFY). */
  database: Pick<Database, 'withTenant' | 'withoutTenant'> & Partial<Pick<Database, 'pool'>>;
  repository: BarriersRepository;
  sites: Pick<SitesRepository, 'siteIdsOfUser' | 'findSite'>;
  audit: Pick<AuditService, 'record'>;
  /** The offline scan raises device_offline through it. */
  alerts?: { raiseAlert: RaiseAlert };
  clock: Clock;
  settings: BarrierSettings;
  log?: (message: string) => void;
};

/** What one open command came to; `sent` is false when an earlier call for the decision sent it. */
export type OpenResult = {
  outcome: GateOpenOutcome;
  device: BarrierDeviceKind | null;
  sent: boolean;
};

export type BarriersService = ReturnType<typeof createBarriersService>;

export const hashAgentToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Last contact is written at most this often per gate (heartbeats come every few seconds), and
 * at least three times within the offline limit, so a connected agent never looks silent.
 */
const LAST_SEEN_WRITE_INTERVAL_MS = 30_000;
const OFFLINE_SCAN_BATCH = 500;
/** A decision's outcome is remembered this long: a second grant for it gets the same answer. */
const DECISION_MEMORY_MS = 10 * 60_000;

const FAILURE_DETAIL = {
  offline: 'No barrier agent is connected for this gate.',
  disconnected:
    'The barrier agent disconnected before confirming; the barrier may not have opened.',
  timeout: 'The barrier did not confirm in time; treat it as not opened.',
} as const;

/** Fail closed: only an agent's confirmed `opened` is an opening. */
export function outcomeOf(
  gateId: string,
  decisionId: string,
  reply: CommandReply,
): GateOpenOutcome {
  if (reply.ok) {
    const opened = reply.result.outcome === 'opened';
    return {
      opened,
      result: opened ? 'opened' : 'not_opened',
      gateId,
      decisionId,
      detail: reply.result.detail,
      latencyMs: reply.latencyMs,
    };
  }
  return {
    opened: false,
    result: reply.failure === 'offline' ? 'offline' : 'not_opened',
    gateId,
    decisionId,
    detail: FAILURE_DETAIL[reply.failure],
    latencyMs: reply.latencyMs,
  };
}

export function createBarriersService({
  database,
  repository,
  sites,
  audit,
  alerts,
  clock,
  settings,
  log = (message) => console.warn(message),
}: BarriersServiceDeps) {
  const lastSeenWriteIntervalMs = Math.min(
    LAST_SEEN_WRITE_INTERVAL_MS,
    Math.floor((settings.offlineAlertSeconds * 1000) / 3),
  );
  const lastWritten = new Map<string, number>();
  const decisions = new Map<string, Promise<OpenResult>>();

  /**
   * Writes the gate's last contact. `change`: a connection taken over (connected) or closed
   * (disconnected), always written and naming the connection: a close writes only while the row
   * still names that connection, so a late drop of an older socket (another process's, or a
   * write that lost the race) never overwrites the newer connection's "connected" (issue 27).
   */
  const persistContact = (
    agent: AgentIdentity,
    device: BarrierDeviceKind | null,
    change?: { connected: boolean; connectionId: string },
  ) => {
    const key = `${agent.tenantId}/${agent.gateId}`;
    const now = Date.now();
    if (!change && now - (lastWritten.get(key) ?? 0) < lastSeenWriteIntervalMs) return;
    lastWritten.set(key, now);
    void database
      .withTenant(agent.tenantId, async (tx) => {
        if (change)
          await repository.recordConnection(
            tx,
            agent.tenantId,
            agent.gateId,
            clock.now(),
            device,
            change,
          );
        else await repository.touch(tx, agent.tenantId, agent.gateId, clock.now(), device);
      })
      .catch(() => lastWritten.delete(key));
  };

  const hub: AgentHub = createAgentHub({
    heartbeatIntervalMs: settings.heartbeatIntervalMs,
    resultTimeoutMs: settings.resultTimeoutMs,
    onHeartbeat: (agent, device) => persistContact(agent, device),
    // Connecting and dropping are always written: they are the presence badge.
    onConnectionChange: (agent, online, connectionId) => {
      persistContact(agent, hub.deviceOf(agent), { connected: online, connectionId });
      // Holding an agent: hear the commands other processes decide for it.
      if (online) relay?.listen().catch((error: Error) => log(`barriers: ${error.message}`));
    },
  });

  /**
   * One command per decision: a second call for a decision already sent (two grants for one
   * entry, a double click) gets the first call's outcome and sends nothing.
   */
  function openHere(agent: AgentIdentity, decisionId: string): Promise<OpenResult> {
    const key = `${agent.tenantId}/${decisionId}`;
    const earlier = decisions.get(key);
    if (earlier) return earlier.then((first) => ({ ...first, sent: false }));
    const pending = hub.sendOpen(agent, decisionId).then((reply) => ({
      outcome: outcomeOf(agent.gateId, decisionId, reply),
      device: reply.device,
      sent: true,
    }));
    decisions.set(key, pending);
    setTimeout(() => decisions.delete(key), DECISION_MEMORY_MS).unref();
    return pending;
  }

  // Several API processes: the agent may hold its connection to another one (agent-relay.ts).
  let channel: NotifyChannel | undefined;
  const pool = database.pool;
  const relay: AgentRelay | undefined = pool
    ? createAgentRelay({
        channel: () =>
          (channel ??= createNotifyChannel({
            pool,
            channel: BARRIER_NOTIFY_CHANNEL,
            onMessage: (payload) => relay?.receive(payload),
            log,
          })),
        holds: (agent) => hub.isOnline(agent),
        openHere,
        disconnectHere: (agent) => hub.disconnect(agent),
        resultTimeoutMs: settings.resultTimeoutMs,
        log,
      })
    : undefined;

  /**
   * One command per decision, sent on this process's connection to the agent or, when the stored
   * presence says another process holds it, relayed to that one (which remembers the decision).
   */
  async function openOnce(agent: AgentIdentity, decisionId: string): Promise<OpenResult> {
    if (hub.isOnline(agent) || !relay) return openHere(agent, decisionId);
    const row = await database.withTenant(agent.tenantId, (tx) =>
      repository.findAgent(tx, agent.tenantId, agent.gateId),
    );
    if (!row?.connected) return openHere(agent, decisionId); // offline, remembered as ever
    const relayed = await relay.request(agent, decisionId);
    if (typeof relayed === 'object') return relayed;
    const reply: CommandReply = {
      ok: false,
      failure: relayed === 'no_holder' ? 'offline' : 'timeout',
      latencyMs: relayed === 'no_holder' ? null : settings.resultTimeoutMs,
      device: row.device,
    };
    return { outcome: outcomeOf(agent.gateId, decisionId, reply), device: row.device, sent: true };
  }

  async function recordOpen(
    agent: AgentIdentity,
    {
      actorUserId,
      reason,
      entryId,
      targetType = 'entry_log',
      outcome,
      device,
      ip,
    }: {
      actorUserId: string | null;
      reason: GateOpenReason | 'entry_granted' | 'exit_recorded';
      entryId: string | null;
      targetType?: 'entry_log' | 'visit';
      outcome: GateOpenOutcome;
      device: BarrierDeviceKind | null;
      ip?: string;
    },
  ) {
    await database.withTenant(agent.tenantId, (tx) =>
      audit.record(tx, {
        tenantId: agent.tenantId,
        actorUserId,
        action: outcome.opened ? 'gate.opened' : 'gate.open-failed',
        targetType: entryId ? targetType : 'gate',
        targetId: entryId ?? agent.gateId,
        ip,
        details: {
          gateId: agent.gateId,
          reason,
          decisionId: outcome.decisionId,
          result: outcome.result,
          detail: outcome.detail,
          latencyMs: outcome.latencyMs,
          device,
        },
      }),
    );
  }

  /** A guard opens only gates of the sites they work at (none assigned: the default site). */
  async function assertMayOperate(tx: Parameters<typeof findGate>[0], actor: Actor, gate: GateRef) {
    if (actor.role !== 'security_guard') return;
    const assigned = await sites.siteIdsOfUser(tx, actor.tenantId, actor.userId);
    const allowed =
      assigned.length > 0
        ? assigned.includes(gate.siteId)
        : (await sites.findSite(tx, actor.tenantId, gate.siteId))?.isDefault === true;
    if (!allowed) throw new AppError('NOT_FOUND', 'Gate not found.');
  }

  const gateNotFound = () => new AppError('NOT_FOUND', 'Gate not found.');

  return {
    hub,

    /** Creates or rotates the gate's agent token (shown once; only its hash is kept). */
    async createAgentToken(actor: Actor, gateId: string, ip?: string) {
      const token = newToken();
      const createdAt = clock.now();
      await database.withTenant(actor.tenantId, async (tx) => {
        if (!(await findGate(tx, actor.tenantId, gateId))) throw gateNotFound();
        const existing = await repository.findAgent(tx, actor.tenantId, gateId);
        await repository.saveToken(tx, {
          tenantId: actor.tenantId,
          gateId,
          tokenHash: hashAgentToken(token),
          createdAt,
          createdBy: actor.userId,
        });
        await audit.record(tx, {
          tenantId: actor.tenantId,
          actorUserId: actor.userId,
          action: existing ? 'gate.agent-token.rotated' : 'gate.agent-token.created',
          targetType: 'gate',
          targetId: gateId,
          ip,
        });
      });
      // The old token's connection ends now; the agent must reconnect with the new one.
      hub.disconnect({ tenantId: actor.tenantId, gateId });
      // …on whichever API process holds it.
      await relay
        ?.disconnect({ tenantId: actor.tenantId, gateId })
        .catch((error: Error) => log(`barriers: ${error.message}`));
      return {
        gateId,
        token,
        connectPath: '/api/agent/connect' as const,
        createdAt: createdAt.toISOString(),
      };
    },

    /** The gate an agent token belongs to, or null. */
    authenticateAgent: (token: string) =>
      database.withoutTenant((tx) => repository.findAgentByTokenHash(tx, hashAgentToken(token))),

    async status(actor: Actor, gateId: string): Promise<GateBarrierStatus> {
      const row = await database.withTenant(actor.tenantId, async (tx) => {
        const gate = await findGate(tx, actor.tenantId, gateId);
        if (!gate) throw gateNotFound();
        await assertMayOperate(tx, actor, gate);
        return repository.findAgent(tx, actor.tenantId, gateId);
      });
      const agent = { tenantId: actor.tenantId, gateId };
      return {
        gateId,
        online: hub.isOnline(agent),
        connected: hub.isOnline(agent) || (row?.connected ?? false),
        device: hub.deviceOf(agent) ?? row?.device ?? null,
        lastSeenAt: hub.isOnline(agent)
          ? clock.now().toISOString()
          : (row?.lastSeenAt?.toISOString() ?? null),
        hasToken: row !== null,
      };
    },

    /** `POST /api/gates/{id}/open`: a hand-made opening, audited as its own record. */
    async openByHand(actor: Actor, gateId: string, reason: GateOpenReason, ip?: string) {
      await database.withTenant(actor.tenantId, async (tx) => {
        const gate = await findGate(tx, actor.tenantId, gateId);
        if (!gate) throw gateNotFound();
        await assertMayOperate(tx, actor, gate);
      });
      const agent = { tenantId: actor.tenantId, gateId };
      const { outcome, device } = await openOnce(agent, newId());
      await recordOpen(agent, {
        actorUserId: actor.userId,
        reason,
        entryId: null,
        outcome,
        device,
        ip,
      });
      return outcome;
    },

    /**
     * Opens the barrier for a granted entry, once per entry. Null when the entry names no gate or
     * the gate has no barrier agent; never throws (the entry is already logged): a failure is a
     * `not_opened` outcome. Audited with the entry.
     */
    async openForEntry({
      tenantId,
      actorUserId,
      entryId,
      gateId,
      ip,
      reason = 'entry_granted',
    }: {
      tenantId: string;
      actorUserId: string | null;
      /** The decision: the granted entry, or (reason exit_recorded) the visit whose exit it is. */
      entryId: string;
      gateId: string | null;
      ip?: string;
      reason?: 'entry_granted' | 'exit_recorded';
    }): Promise<GateOpenOutcome | null> {
      if (!gateId) return null;
      const agent = { tenantId, gateId };
      try {
        const hasBarrier = await database.withTenant(
          tenantId,
          async (tx) => (await repository.findAgent(tx, tenantId, gateId)) !== null,
        );
        if (!hasBarrier) return null;
        const { outcome, device, sent } = await openOnce(agent, entryId);
        if (sent) {
          await recordOpen(agent, {
            actorUserId,
            reason,
            entryId,
            targetType: reason === 'exit_recorded' ? 'visit' : 'entry_log',
            outcome,
            device,
            ip,
          });
        }
        return outcome;
      } catch {
        return {
          opened: false,
          result: 'not_opened',
          gateId,
          decisionId: entryId,
          detail: 'The open command could not be sent.',
          latencyMs: null,
        };
      }
    },

    /**
     * The barriers.offline-scan job: every agent silent longer than BARRIER_OFFLINE_ALERT_SECONDS
     * raises one device_offline alert per outage (keyed by its last contact), with its gate and site.
     */
    async offlineScan(): Promise<number> {
      if (!alerts) return 0;
      const before = new Date(clock.now().getTime() - settings.offlineAlertSeconds * 1000);
      const silent = await database.withoutTenant((tx) =>
        repository.listOfflineAgents(tx, before, OFFLINE_SCAN_BATCH),
      );
      let raised = 0;
      for (const { tenantId, gateId, lastSeenAt } of silent) {
        // This process holds the connection: the stored contact is just behind (no outage).
        if (hub.isOnline({ tenantId, gateId })) continue;
        const row = await database.withTenant(tenantId, async (tx) => {
          const gate = await findGate(tx, tenantId, gateId);
          return alerts.raiseAlert(tx, {
            tenantId,
            kind: 'device_offline',
            siteId: gate?.siteId ?? null,
            gateId,
            message: `The barrier agent of gate ${gate?.name ?? gateId} has not been heard from since ${lastSeenAt.toISOString()}: open the barrier by hand.`,
            dedupeKey: `device_offline:gate:${gateId}:${lastSeenAt.getTime()}`,
          });
        });
        if (row) raised++;
      }
      return raised;
    },

    async close() {
      hub.close();
      await channel?.close();
    },
  };
}
