import { createHash } from 'node:crypto';

import { isSealedValue } from '@/platform/sealing';

import { canonicalJson } from './site-sync-signature';

/**
 * Members of a stored payload that say how its objects travelled, not what the fact is: digests
 * of sealed objects' bytes (ciphertext), a capture's object length, and the objects a resend
 * said were gone (a capture sent with its image, then again after the node purged it, is the
 * same capture: its `image_key` still names the image).
 */
const NOT_COMPARED = new Set(['object_sha256', 'sha256', 'object_bytes', 'objects_missing']);

/** The payload with its ciphertexts left out: sealed values as `sv1`, objects by key only. */
function withoutCiphertexts(value: unknown): unknown {
  if (typeof value === 'string') return isSealedValue(value) ? 'sv1' : value;
  if (Array.isArray(value)) return value.map(withoutCiphertexts);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => !NOT_COMPARED.has(key))
        .map(([key, item]) => [key, withoutCiphertexts(item)]),
    );
  return value;
}

/**
 * Issue 28 (ADR 0009): a fact's payload hash, as central compares a fact it holds with the same
 * fact sent under another seq: SHA-256 of the canonical JSON (key order is not part of a fact) of
 * the payload as central stores it (objects as digests), with the ciphertexts left out. A node
 * re-seals its unacknowledged facts after a data key rotation (keys.reseal-node): the same fact
 * then carries the same values sealed again (a fresh IV, another key), and its objects' digests
 * change with them, but it is still the same fact. Every plain member, every object's key, and
 * where each sealed value stands are still compared.
 */
export const sitePayloadHash = (payload: unknown) =>
  createHash('sha256')
    .update(canonicalJson(withoutCiphertexts(payload)))
    .digest('hex');
