import { z } from 'zod';

import { BarrierDeviceKindSchema, GateOpenOutcomeSchema } from '@boomgate/contracts/barriers';

import { newId } from '@/platform/ids';
import type { NotifyChannel } from '@/platform/notify-channel';

import type { AgentIdentity } from './agent-hub';
import type { OpenResult } from './barriers.service';

/** The channel open commands and their results travel on between API processes. */
export const BARRIER_NOTIFY_CHANNEL = 'boomgate_barriers';

const RelayMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('open'),
    requestId: z.string(),
    from: z.string(),
    tenantId: z.uuid(),
    gateId: z.uuid(),
    decisionId: z.string(),
  }),
  z.object({ type: z.literal('disconnect'), tenantId: z.uuid(), gateId: z.uuid() }),
  z.object({ type: z.literal('ack'), requestId: z.string(), to: z.string() }),
  z.object({
    type: z.literal('result'),
    requestId: z.string(),
    to: z.string(),
    outcome: GateOpenOutcomeSchema,
    device: BarrierDeviceKindSchema.nullable(),
    sent: z.boolean(),
  }),
]);
type RelayMessage = z.infer<typeof RelayMessageSchema>;

/** How long the asker waits for the holder to say it has the command before calling the gate offline. */
export const RELAY_ACK_TIMEOUT_MS = 1_500;

/** What a relayed request came to: the holder's result, or nobody holding the agent / answering. */
export type RelayAnswer = OpenResult | 'no_holder' | 'no_result';

/**
 * Several API processes behind a load balancer: a gate's agent holds its WebSocket to one of
 * them, while the decision to open may be taken on any. The deciding process publishes the open
 * command on a NOTIFY channel; the process holding the agent's connection (and only it) sends
 * it, one command per decision as ever, and publishes the agent's result back to the process that
 * asked. The holder acknowledges at once: no acknowledgement (the stored presence was stale: the
 * holder died, or its disconnect is not written yet) is `offline`; an acknowledgement without a
 * result in time is `not_opened`. Either way: fail closed.
 */
export function createAgentRelay({
  channel,
  holds,
  openHere,
  disconnectHere,
  resultTimeoutMs,
  log,
}: {
  /** Built over createNotifyChannel with `relay.receive` as its onMessage. */
  channel: () => NotifyChannel;
  /** Whether this process holds the agent's connection. */
  holds: (agent: AgentIdentity) => boolean;
  /** The one-command-per-decision open on this process's own connection. */
  openHere: (agent: AgentIdentity, decisionId: string) => Promise<OpenResult>;
  /** Ends this process's connection of the agent, if it holds one (its token was replaced). */
  disconnectHere: (agent: AgentIdentity) => void;
  resultTimeoutMs: number;
  log: (message: string) => void;
}) {
  const instanceId = newId();
  const waiting = new Map<string, { ack: () => void; result: (result: OpenResult) => void }>();

  const publish = (message: RelayMessage) => channel().publish(JSON.stringify(message));

  async function answer(message: Extract<RelayMessage, { type: 'open' }>) {
    const agent = { tenantId: message.tenantId, gateId: message.gateId };
    if (!holds(agent)) return; // another process holds it (or none: the asker times out)
    await publish({ type: 'ack', requestId: message.requestId, to: message.from });
    const result = await openHere(agent, message.decisionId);
    await publish({ type: 'result', requestId: message.requestId, to: message.from, ...result });
  }

  return {
    /** onMessage of the channel: every process sees every message. */
    receive(payload: string) {
      let parsed;
      try {
        parsed = RelayMessageSchema.safeParse(JSON.parse(payload));
      } catch {
        return;
      }
      if (!parsed.success) return;
      const message = parsed.data;
      if (message.type === 'open') {
        answer(message).catch((error: Error) =>
          log(`barriers: could not relay an open command: ${error.message}`),
        );
      } else if (message.type === 'disconnect') {
        disconnectHere({ tenantId: message.tenantId, gateId: message.gateId });
      } else if (message.to !== instanceId) {
        return; // an answer for another process
      } else if (message.type === 'ack') {
        waiting.get(message.requestId)?.ack();
      } else {
        waiting.get(message.requestId)?.result({
          outcome: message.outcome,
          device: message.device,
          sent: message.sent,
        });
      }
    },

    /** Ends the agent's connection wherever it is held (its token was replaced). */
    disconnect: (agent: AgentIdentity) => publish({ type: 'disconnect', ...agent }),

    /** This process now holds agents: it must hear the commands meant for them. */
    listen: () => channel().start(),

    /**
     * Asks the process holding the agent to open. The result wait is a little longer than the
     * holder's own wait for the agent, so a holder's `timeout` answer arrives before ours.
     */
    async request(agent: AgentIdentity, decisionId: string): Promise<RelayAnswer> {
      await channel().start(); // hear the answer
      const requestId = newId();
      try {
        return await new Promise<RelayAnswer>((resolve, reject) => {
          let timer = setTimeout(() => resolve('no_holder'), RELAY_ACK_TIMEOUT_MS);
          waiting.set(requestId, {
            ack() {
              clearTimeout(timer);
              timer = setTimeout(() => resolve('no_result'), resultTimeoutMs + 1_000);
            },
            result(result) {
              clearTimeout(timer);
              resolve(result);
            },
          });
          publish({ type: 'open', requestId, from: instanceId, ...agent, decisionId }).catch(
            (error: Error) => {
              clearTimeout(timer);
              reject(error);
            },
          );
        });
      } finally {
        waiting.delete(requestId);
      }
    },
  };
}
export type AgentRelay = ReturnType<typeof createAgentRelay>;
