/**
 * Site sync (issue 28, ADR 0009): what central and its site nodes share. The signature of a
 * down-sync page (`site-sync-signature.ts`, the same file on both sides): central signs, the site
 * node verifies with the key it pinned at enrolment. Central's tokens and routes live beside it.
 */
export { canonicalJson, signSiteSyncPage, verifySiteSyncPage } from './site-sync-signature';
