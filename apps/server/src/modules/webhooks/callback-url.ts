import ipaddr from 'ipaddr.js';

export type ResolvedAddress = { address: string; family: number };
/** DNS resolution of a host name to every address (dns.lookup with `all: true` in production). */
export type Resolve = (hostname: string) => Promise<ResolvedAddress[]>;

/**
 * SEC-63: a callback is https on port 443, whatever NODE_ENV says. The only loosening is
 * WEBHOOKS_ALLOW_LOOPBACK_HTTP, for local development and tests: a URL whose every address is
 * loopback (127.0.0.1 / ::1) may then use http and any port.
 */
export type CallbackUrlPolicy = {
  /** WEBHOOKS_ALLOW_LOOPBACK_HTTP: local development and tests may call 127.0.0.1 / ::1 over http. */
  allowLoopback: boolean;
};

// WHATWG URL parsing leaves `port` empty for the scheme's default, so https://host:443/ reads ''.
const HTTPS_PORT = '';

/** Only ordinary public unicast addresses; IPv4-mapped IPv6 is judged as the IPv4 inside it. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

export function isLoopbackAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'loopback';
}

export function isAllowedAddress(address: string, policy: CallbackUrlPolicy): boolean {
  return isPublicAddress(address) || (policy.allowLoopback && isLoopbackAddress(address));
}

export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

const refuse = (reason: string): UrlCheck => ({ ok: false, reason });

/**
 * SSRF rules for a tenant's callback URL, applied when it is saved and again before each send
 * (DNS may have changed). Every address the name resolves to must be public; the connection
 * itself is guarded again at connect time (callback-sender.ts) against DNS rebinding.
 */
export async function checkCallbackUrl(
  raw: string,
  policy: CallbackUrlPolicy,
  resolve: Resolve,
): Promise<UrlCheck> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse('The callback URL is not a valid absolute URL.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return refuse('The callback URL must use https.');
  }
  if (url.username || url.password) {
    return refuse('The callback URL must not contain a user name or password.');
  }
  // WHATWG parsing already turned 2130706433, 0x7f.1 and 0177.0.0.1 into 127.0.0.1.
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (host === '') return refuse('The callback URL must name a public host.');

  let addresses: string[];
  if (ipaddr.isValid(host)) {
    addresses = [host];
  } else {
    const name = host.toLowerCase().replace(/\.$/, '');
    if ((name === 'localhost' || name.endsWith('.localhost')) && !policy.allowLoopback) {
      return refuse('The callback URL must name a public host, not this machine.');
    }
    try {
      addresses = (await resolve(name)).map((entry) => entry.address);
    } catch {
      return refuse(`The callback host ${name} could not be resolved.`);
    }
    if (addresses.length === 0) return refuse(`The callback host ${name} could not be resolved.`);
  }

  if (!addresses.every((address) => isAllowedAddress(address, policy))) {
    return refuse('The callback URL points to a private, local or reserved network address.');
  }
  const isLoopbackOnly = addresses.every(isLoopbackAddress);
  if (!(policy.allowLoopback && isLoopbackOnly)) {
    if (url.protocol !== 'https:') return refuse('The callback URL must use https.');
    if (url.port !== HTTPS_PORT) return refuse('The callback URL must use port 443.');
  }
  return { ok: true, url };
}
