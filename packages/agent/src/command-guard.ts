import type { AgentOpenCommand } from '@boomgate/contracts/barriers';

/**
 * The agent's safety gate in front of the driver:
 * - one command at a time: a command arriving while the barrier is being pulsed is refused,
 *   never queued (a queued pulse would open the boom for whoever is there later);
 * - one pulse per decision: a decision id seen before is refused;
 * - no late pulses: a command older than `maxAgeMs` by the server's clock (the agent's clock
 *   corrected by the offset measured at connection) is dropped.
 */
export type Refusal = 'busy' | 'duplicate' | 'stale';

export const REFUSAL_DETAIL: Record<Refusal, string> = {
  busy: 'another command for this gate is still running',
  duplicate: 'this decision was already handled',
  stale: 'the command arrived too late and was dropped',
};

export type CommandGuardOptions = {
  maxAgeMs: number;
  now?: () => number;
  /** How many decision ids to remember. */
  memory?: number;
};

export function createCommandGuard({
  maxAgeMs,
  now = Date.now,
  memory = 1_000,
}: CommandGuardOptions) {
  const decisions = new Set<string>();
  let running: string | null = null;
  let serverOffsetMs = 0;
  let samples = 0;

  const remember = (decisionId: string) => {
    decisions.add(decisionId);
    if (decisions.size > memory) {
      const oldest = decisions.values().next().value;
      if (oldest !== undefined) decisions.delete(oldest);
    }
  };

  return {
    /**
     * A clock sample from the server (hello, and the answer to each heartbeat). The offset is
     * server time minus ours; every sample underestimates it by its delivery delay, so the largest
     * (least delayed) sample of the connection is kept.
     */
    setServerTime(serverTime: number) {
      const sample = serverTime - now();
      serverOffsetMs = samples === 0 ? sample : Math.max(serverOffsetMs, sample);
      samples += 1;
    },
    /** A new connection starts measuring afresh. */
    resetClock() {
      samples = 0;
      serverOffsetMs = 0;
    },
    /** Admits a command (and marks it running) or says why not. */
    admit(command: Pick<AgentOpenCommand, 'decisionId' | 'issuedAt'>): Refusal | null {
      const ageMs = now() + serverOffsetMs - command.issuedAt;
      if (ageMs > maxAgeMs) return 'stale';
      if (decisions.has(command.decisionId)) return 'duplicate';
      if (running !== null) return 'busy';
      remember(command.decisionId);
      running = command.decisionId;
      return null;
    },
    finish(decisionId: string) {
      if (running === decisionId) running = null;
    },
    get running() {
      return running;
    },
  };
}
export type CommandGuard = ReturnType<typeof createCommandGuard>;
