/**
 * Site sync (issue 28, ADR 0009): what central and its site nodes share — the canonical JSON and
 * the Ed25519 signature of a down-sync page. Central's routes and site tokens live beside it.
 */
export {
  canonicalJson,
  centralPublicKeyFrom,
  signChangesPage,
  signedBytes,
  verifyChangesPage,
  type UnsignedChangesPage,
} from './site-sync-signature';
