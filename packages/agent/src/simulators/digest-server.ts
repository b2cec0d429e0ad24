import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The device side of HTTP digest auth (RFC 7616, qop=auth) for the simulators, so the drivers'
 * digest client is exercised against a real challenge and a real check.
 */
export type DigestAlgorithm = 'MD5' | 'SHA-256';

const hashName = (algorithm: DigestAlgorithm) => (algorithm === 'MD5' ? 'md5' : 'sha256');

export function parseDigestHeader(header: string): Record<string, string> | null {
  if (!/^Digest\s/i.test(header)) return null;
  const fields: Record<string, string> = {};
  for (const match of header.slice(7).matchAll(/(\w+)=(?:"([^"]*)"|([^,\s]*))/g)) {
    fields[match[1]!.toLowerCase()] = match[2] ?? match[3] ?? '';
  }
  return fields;
}

export function createDigestVerifier(options: {
  realm: string;
  user: string;
  password: string;
  algorithm: DigestAlgorithm;
}) {
  const nonces = new Set<string>();
  const hash = (text: string) => createHash(hashName(options.algorithm)).update(text).digest('hex');
  return {
    challenge() {
      const nonce = randomBytes(16).toString('hex');
      nonces.add(nonce);
      return `Digest qop="auth", realm="${options.realm}", nonce="${nonce}", algorithm=${options.algorithm}`;
    },
    verify(method: string, header: string | undefined): boolean {
      const fields = header ? parseDigestHeader(header) : null;
      if (!fields || !fields.nonce || !nonces.has(fields.nonce)) return false;
      if (fields.username !== options.user || fields.realm !== options.realm) return false;
      const ha1 = hash(`${options.user}:${options.realm}:${options.password}`);
      const ha2 = hash(`${method}:${fields.uri ?? ''}`);
      const expected = fields.qop
        ? hash(`${ha1}:${fields.nonce}:${fields.nc}:${fields.cnonce}:${fields.qop}:${ha2}`)
        : hash(`${ha1}:${fields.nonce}:${ha2}`);
      const given = Buffer.from(fields.response ?? '');
      return given.length === expected.length && timingSafeEqual(given, Buffer.from(expected));
    },
  };
}
