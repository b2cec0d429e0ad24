import { type KeyObject, createPublicKey, sign, verify } from 'node:crypto';

import type { SiteSyncChangesPage } from '@boomgate/contracts/site-sync';

/**
 * Issue 28 (ADR 0009): the signature over a down-sync page, shared by central (signs) and the
 * site node (verifies). The signed bytes are the canonical JSON of the page without `signature`:
 * object keys sorted recursively (by UTF-16 code unit, as `Array.prototype.sort` does), arrays in
 * their order, no whitespace, `undefined` members left out as `JSON.stringify` does. Both sides
 * compute it from the parsed value, so the wire's own key order and spacing never matter.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? 'null';
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => sortKeys(item) ?? null);
  if (value instanceof Date) return value.toISOString();
  if (value !== null && typeof value === 'object') {
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const member = (value as Record<string, unknown>)[key];
      if (member !== undefined) sorted[key] = sortKeys(member);
    }
    return sorted;
  }
  return value;
}

export type UnsignedChangesPage = Omit<SiteSyncChangesPage, 'signature'>;

/** The bytes that are signed: the page without its signature, canonical. */
export function signedBytes(page: UnsignedChangesPage | SiteSyncChangesPage): Buffer {
  const { signature: _signature, ...unsigned } = page as SiteSyncChangesPage;
  return Buffer.from(canonicalJson(unsigned), 'utf8');
}

/** Central: the page with its Ed25519 signature (base64). */
export function signChangesPage(
  page: UnsignedChangesPage,
  privateKey: KeyObject,
): SiteSyncChangesPage {
  return { ...page, signature: sign(null, signedBytes(page), privateKey).toString('base64') };
}

/** A base64 SPKI Ed25519 public key (what the node pins) as a key object. */
export function centralPublicKeyFrom(spkiBase64: string): KeyObject {
  const key = createPublicKey({
    key: Buffer.from(spkiBase64, 'base64'),
    format: 'der',
    type: 'spki',
  });
  if (key.asymmetricKeyType !== 'ed25519') throw new TypeError('not an Ed25519 public key');
  return key;
}

/** Site node: true only when `signature` is central's Ed25519 signature over this page. */
export function verifyChangesPage(page: SiteSyncChangesPage, publicKey: KeyObject): boolean {
  try {
    return verify(null, signedBytes(page), publicKey, Buffer.from(page.signature, 'base64'));
  } catch {
    return false;
  }
}
