import { type BarrierDriver, type PulseOutcome, describeError, notOpened } from './types';

/**
 * Anything else with an HTTP trigger (a controller's web relay, a PLC gateway, a vendor bridge):
 * one configured request. Opened when the device answers 2xx and, when `expect` is set, the body
 * contains it (use it when a device answers 200 even when it refuses). Basic auth when a password
 * is given.
 */
export type HttpDriverOptions = {
  url: string;
  method?: string;
  body?: string;
  contentType?: string;
  expect?: string;
  user?: string;
  password?: string;
  timeoutMs?: number;
};

export function createHttpDriver({
  url,
  method = 'POST',
  body,
  contentType = 'application/json',
  expect,
  user = 'admin',
  password,
  timeoutMs = 2_000,
}: HttpDriverOptions): BarrierDriver {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = contentType;
  if (password !== undefined) {
    headers.authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  }
  return {
    kind: 'http',
    async pulse(): Promise<PulseOutcome> {
      try {
        const response = await fetch(url, {
          method,
          headers,
          body,
          signal: AbortSignal.timeout(timeoutMs),
        });
        const text = await response.text();
        if (!response.ok) return notOpened(`the device answered HTTP ${response.status}`);
        if (expect !== undefined && !text.includes(expect)) {
          return notOpened(`the device answered without "${expect}"`);
        }
        return { opened: true, detail: `HTTP ${response.status}` };
      } catch (error) {
        return notOpened(describeError(error));
      }
    },
  };
}
