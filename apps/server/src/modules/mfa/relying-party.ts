/** The WebAuthn relying party: passkeys are bound to `rpID`, ceremonies to `origin`. */
export type RelyingParty = { rpID: string; origin: string };

/**
 * From PUBLIC_ORIGIN when it is configured (production: the address people type). Without it
 * (local development, tests) from the request's own scheme and Host, which the browser's origin
 * must then match; a phishing origin still cannot use a passkey, the browser binds it to rpID.
 */
export function relyingPartyResolver(publicOrigin: string | undefined) {
  const configured = publicOrigin ? new URL(publicOrigin) : undefined;
  return (request: { protocol: string; host: string }): RelyingParty => {
    const url = configured ?? new URL(`${request.protocol}://${request.host}`);
    return { rpID: url.hostname, origin: url.origin };
  };
}
