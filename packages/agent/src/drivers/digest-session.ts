import DigestClient from 'digest-fetch';

/**
 * HTTP digest auth for the device drivers, through `digest-fetch` (RFC 7616: MD5 and SHA-256).
 * It also stops after two 401s: digest-fetch answers the first 401 (the challenge) with one
 * authenticated retry, so a second 401 means the credentials were refused, and devices lock the
 * account after a few bad logins (Hikvision). From then on nothing is sent until the agent is
 * restarted with corrected credentials.
 */
export type DigestSessionOptions = {
  user: string;
  password: string | undefined;
  algorithm: 'MD5' | 'SHA-256';
};

export class CredentialsRefusedError extends Error {
  constructor() {
    super(
      'the device refused the user and password twice; stopped sending to avoid locking the account (fix the credentials and restart the agent)',
    );
    this.name = 'CredentialsRefusedError';
  }
}

export function createDigestSession({ user, password, algorithm }: DigestSessionOptions) {
  let refused = false;
  return {
    get refused() {
      return refused;
    },
    /** A request, digest-authenticated when a password is configured. */
    async fetch(url: string, init: RequestInit & { timeoutMs: number }): Promise<Response> {
      if (refused) throw new CredentialsRefusedError();
      const { timeoutMs, ...rest } = init;
      const options = { ...rest, signal: AbortSignal.timeout(timeoutMs) };
      // A fresh client per request: a nonce from an earlier command is never replayed.
      const response =
        password === undefined
          ? await fetch(url, options)
          : ((await new DigestClient(user, password, { algorithm }).fetch(
              url,
              options,
            )) as Response);
      if (response.status === 401) {
        refused = true;
        await response.body?.cancel();
        throw new CredentialsRefusedError();
      }
      return response;
    },
  };
}
