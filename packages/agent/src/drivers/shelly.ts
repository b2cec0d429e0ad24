import { createDigestSession } from './digest-session';
import { type BarrierDriver, type PulseOutcome, describeError, notOpened } from './types';

/**
 * Shelly Gen2+ relays (Plus 1, Pro 1…): JSON-RPC over `POST /rpc`. The pulse is
 * `Switch.Set {id, on: true, toggle_after}`: the relay switches itself off after `toggle_after`
 * seconds, so a crash of the agent cannot leave the boom latched up. Opened is confirmed by
 * reading the output back with `Switch.GetStatus`. Auth: digest SHA-256, user `admin`.
 */
export type ShellyOptions = {
  url: string;
  password?: string;
  switchId?: number;
  pulseSeconds?: number;
  timeoutMs?: number;
};

type RpcReply = { result?: Record<string, unknown>; error?: { code?: number; message?: string } };

export function createShellyDriver({
  url,
  password,
  switchId = 0,
  pulseSeconds = 1,
  timeoutMs = 2_000,
}: ShellyOptions): BarrierDriver {
  const session = createDigestSession({ user: 'admin', password, algorithm: 'SHA-256' });
  const endpoint = new URL('/rpc', url).toString();
  let nextId = 1;

  const rpc = async (method: string, params: Record<string, unknown>): Promise<RpcReply> => {
    const response = await session.fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: nextId++, method, params }),
      timeoutMs,
    });
    if (!response.ok) {
      await response.body?.cancel();
      throw new Error(`${method} answered HTTP ${response.status}`);
    }
    return (await response.json()) as RpcReply;
  };

  return {
    kind: 'shelly',
    async pulse(): Promise<PulseOutcome> {
      try {
        const set = await rpc('Switch.Set', { id: switchId, on: true, toggle_after: pulseSeconds });
        if (set.error || !set.result) {
          return notOpened(`Switch.Set refused: ${set.error?.message ?? 'no result'}`);
        }
        const status = await rpc('Switch.GetStatus', { id: switchId });
        if (status.result?.output === true) {
          return { opened: true, detail: `relay ${switchId} on for ${pulseSeconds}s` };
        }
        return notOpened(`relay ${switchId} did not report on after Switch.Set`);
      } catch (error) {
        return notOpened(describeError(error));
      }
    },
  };
}
