import dns from 'node:dns';
import type { LookupAddress, LookupOptions } from 'node:dns';

import { Agent, request } from 'undici';

import {
  type CallbackUrlPolicy,
  type Resolve,
  checkCallbackUrl,
  isAllowedAddress,
} from './callback-url';

/** The shape of dns.lookup that net.connect calls; tests pass a stub (no real DNS). */
export type Lookup = (
  hostname: string,
  options: LookupOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

const systemLookup: Lookup = (hostname, options, callback) =>
  dns.lookup(hostname, { ...options, all: true }, callback);

export class BlockedAddressError extends Error {
  readonly code = 'EBLOCKEDADDRESS';
}

export type SendResult = {
  /** The response status, or null when none arrived (refused, timeout, blocked address). */
  status: number | null;
  retryAfter: string | null;
  error: string | null;
};

export type CallbackSender = {
  /** Resolves and checks a URL without connecting (used when a URL is saved). */
  check(url: string): ReturnType<typeof checkCallbackUrl>;
  send(input: {
    url: string;
    /** JSON text for callbacks; bytes for an encrypted Web Push message (alerts). */
    body: string | Uint8Array;
    headers: Record<string, string>;
  }): Promise<SendResult>;
  close(): Promise<void>;
};

/**
 * Sends callbacks through an undici Agent whose DNS lookup refuses private answers at connect
 * time, so a name that resolved to a public address when saved cannot be re-pointed at the
 * internal network (DNS rebinding). IP literals skip lookup, so the URL is re-checked before each
 * send too. Redirects are never followed (undici's request does not follow them).
 */
export function createCallbackSender({
  policy,
  timeoutMs,
  lookup = systemLookup,
}: {
  policy: CallbackUrlPolicy;
  timeoutMs: number;
  lookup?: Lookup;
}): CallbackSender {
  const resolve: Resolve = (hostname) =>
    new Promise((done, fail) =>
      lookup(hostname, { all: true }, (error, addresses) =>
        error ? fail(error) : done(addresses),
      ),
    );

  const guardedLookup = (
    hostname: string,
    options: LookupOptions,
    callback: (
      error: NodeJS.ErrnoException | null,
      address: string | LookupAddress[],
      family?: number,
    ) => void,
  ) => {
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const blocked = addresses.find((entry) => !isAllowedAddress(entry.address, policy));
      if (blocked || addresses.length === 0) {
        return callback(
          new BlockedAddressError(
            `Refused to connect to ${hostname}: it resolves to a non-public address`,
          ),
          [],
        );
      }
      if (options.all) return callback(null, addresses);
      const [firstAddress] = addresses;
      return callback(null, firstAddress?.address ?? '', firstAddress?.family);
    });
  };

  const agent = new Agent({
    connect: { lookup: guardedLookup, timeout: Math.min(timeoutMs, 10_000) },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    connections: 16,
  });

  return {
    check: (url) => checkCallbackUrl(url, policy, resolve),

    async send({ url, body, headers }) {
      const checked = await checkCallbackUrl(url, policy, resolve);
      if (!checked.ok) return { status: null, retryAfter: null, error: checked.reason };
      try {
        const response = await request(checked.url, {
          method: 'POST',
          body,
          headers: {
            'content-type': 'application/json',
            'user-agent': 'Boomgate-Webhooks/1',
            ...headers,
          },
          dispatcher: agent,
          signal: AbortSignal.timeout(timeoutMs),
        });
        await response.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
        const retryAfter = response.headers['retry-after'];
        return {
          status: response.statusCode,
          retryAfter: (Array.isArray(retryAfter) ? retryAfter[0] : retryAfter) ?? null,
          error: null,
        };
      } catch (error) {
        return { status: null, retryAfter: null, error: describeError(error) };
      }
    },

    close: () => agent.close(),
  };
}

function describeError(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    if (current instanceof BlockedAddressError) return current.message;
    current = current.cause;
  }
  if (error instanceof Error) {
    if (error.name === 'TimeoutError' || error.name === 'AbortError')
      return 'The receiver did not answer in time.';
    const code = (error as { code?: string }).code;
    return code ? `${code}: ${error.message}` : error.message;
  }
  return 'Unknown error';
}
