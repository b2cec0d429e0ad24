import { createDigestSession } from './digest-session';
import { type BarrierDriver, type PulseOutcome, describeError, notOpened } from './types';

/**
 * Hikvision barrier controllers and ANPR cameras with a barrier output (ISAPI):
 * `PUT /ISAPI/Parking/channels/{n}/barrierGate` with `<ctrlMode>open</ctrlMode>`; the barrier's
 * own controller closes it again. A locked barrier answers `statusCode 1` and does not move, so
 * opened is only confirmed by `GET …/barrierGate/barrierGateStatus` reporting 2 (open).
 * Auth: digest (MD5); two 401s stop the driver (digest-session.ts).
 */
export type HikvisionOptions = {
  url: string;
  user?: string;
  password?: string;
  channel?: number;
  /** How long to wait for the status to turn open. */
  confirmTimeoutMs?: number;
  pollIntervalMs?: number;
  timeoutMs?: number;
};

export const BARRIER_OPEN_XML =
  '<?xml version="1.0" encoding="UTF-8"?><BarrierGate><ctrlMode>open</ctrlMode></BarrierGate>';

/** ISAPI `barrierGateStatus`: 0 no signal, 1 closed, 2 open. */
export function parseBarrierGateStatus(xml: string): number | null {
  const match = /<barrierGateStatus>\s*(\d+)\s*<\/barrierGateStatus>/i.exec(xml);
  return match ? Number(match[1]) : null;
}

/** ISAPI `ResponseStatus`: statusCode 1 is OK. */
export function parseStatusCode(xml: string): number | null {
  const match = /<statusCode>\s*(\d+)\s*<\/statusCode>/i.exec(xml);
  return match ? Number(match[1]) : null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createHikvisionDriver({
  url,
  user = 'admin',
  password,
  channel = 1,
  confirmTimeoutMs = 1_500,
  pollIntervalMs = 100,
  timeoutMs = 2_000,
}: HikvisionOptions): BarrierDriver {
  const session = createDigestSession({ user, password, algorithm: 'MD5' });
  const gateUrl = new URL(`/ISAPI/Parking/channels/${channel}/barrierGate`, url).toString();
  const statusUrl = `${gateUrl}/barrierGateStatus`;

  const readStatus = async () => {
    const response = await session.fetch(statusUrl, { method: 'GET', timeoutMs });
    const text = await response.text();
    return response.ok ? parseBarrierGateStatus(text) : null;
  };

  return {
    kind: 'hikvision',
    async pulse(): Promise<PulseOutcome> {
      try {
        const response = await session.fetch(gateUrl, {
          method: 'PUT',
          headers: { 'content-type': 'application/xml' },
          body: BARRIER_OPEN_XML,
          timeoutMs,
        });
        const text = await response.text();
        if (!response.ok || parseStatusCode(text) !== 1) {
          return notOpened(`barrierGate answered HTTP ${response.status}`);
        }
        const deadline = Date.now() + confirmTimeoutMs;
        let status = await readStatus();
        while (status !== 2 && Date.now() < deadline) {
          await sleep(pollIntervalMs);
          status = await readStatus();
        }
        if (status === 2) return { opened: true, detail: 'barrierGateStatus reports open' };
        return notOpened(
          `the barrier accepted the command but its status stayed ${status ?? 'unknown'} (locked or faulty?)`,
        );
      } catch (error) {
        return notOpened(describeError(error));
      }
    },
  };
}
