/**
 * Issue 28 (ADR 0009): the signature of a down-sync changes page. Central signs with its tenant's
 * Ed25519 key; the site node verifies with the public half it pinned at enrolment. Pure
 * node:crypto, no database: the site node imports this file as it is.
 */
import { type KeyObject, createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';

import type { SiteSyncChangesPage } from '@boomgate/contracts/site-sync';

/**
 * JSON with every object's keys sorted (recursively), no whitespace: the same value gives the
 * same bytes on both sides whatever order its keys were built or parsed in. `undefined` members
 * are left out as JSON.stringify leaves them; arrays keep their order.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const member = (value as Record<string, unknown>)[key];
      if (member !== undefined) sorted[key] = sortKeys(member);
    }
    return sorted;
  }
  return value;
}

export type UnsignedSiteSyncPage = Omit<SiteSyncChangesPage, 'signature'>;

/** The bytes signed: the page's canonical JSON without `signature`. */
function signedBytes(page: UnsignedSiteSyncPage | SiteSyncChangesPage): Buffer {
  const { signature: _signature, ...unsigned } = page as SiteSyncChangesPage;
  return Buffer.from(canonicalJson(unsigned), 'utf8');
}

/** Signs a page with an Ed25519 private key (PKCS#8 DER, base64, or a KeyObject). */
export function signSiteSyncPage(
  page: UnsignedSiteSyncPage,
  privateKey: KeyObject | string,
): SiteSyncChangesPage {
  const key =
    typeof privateKey === 'string'
      ? createPrivateKey({ key: Buffer.from(privateKey, 'base64'), format: 'der', type: 'pkcs8' })
      : privateKey;
  const signature = sign(null, signedBytes(page), key).toString('base64');
  return { ...page, signature };
}

/**
 * True when `page.signature` is central's Ed25519 signature over the rest of the page, under the
 * pinned public key (SPKI DER, base64). Any change to the page (a row, a version, `since`) fails.
 * A malformed key or signature is a failure, never an exception.
 */
export function verifySiteSyncPage(page: SiteSyncChangesPage, publicKeyBase64: string): boolean {
  try {
    const key = createPublicKey({
      key: Buffer.from(publicKeyBase64, 'base64'),
      format: 'der',
      type: 'spki',
    });
    if (key.asymmetricKeyType !== 'ed25519') return false;
    const signature = Buffer.from(page.signature, 'base64');
    if (signature.length !== 64) return false;
    return verify(null, signedBytes(page), key, signature);
  } catch {
    return false;
  }
}
