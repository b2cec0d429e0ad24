import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { AuthResponseSchema } from '@boomgate/contracts/auth';
import {
  MfaStatusSchema,
  PasskeyAuthenticationOptionsSchema,
  PasskeyRegistrationOptionsSchema,
  PasskeySchema,
  RecoveryCodesResponseSchema,
  TotpSetupResponseSchema,
} from '@boomgate/contracts/mfa';
import { NoContentSchema } from '@boomgate/contracts/primitives';

import { request } from '@/lib/api-client';

export const mfaKeys = { status: () => ['auth', 'mfa'] as const };

/** GET /api/auth/mfa: the signed-in user's own second factors. */
export function useMfaStatus() {
  return useQuery({
    queryKey: mfaKeys.status(),
    queryFn: ({ signal }) => request('GET', '/api/auth/mfa', { schema: MfaStatusSchema, signal }),
  });
}

export const setupTotp = () =>
  request('POST', '/api/auth/mfa/totp/setup', { schema: TotpSetupResponseSchema, body: {} });

export const confirmTotp = (code: string) =>
  request('POST', '/api/auth/mfa/totp/confirm', {
    schema: RecoveryCodesResponseSchema,
    body: { code },
  });

/**
 * A new passkey: options from the server, the browser's ceremony (@simplewebauthn/browser, loaded
 * only now), then the server's check.
 */
export async function registerPasskey(name?: string) {
  const options = await request('POST', '/api/auth/mfa/passkeys/registration/options', {
    schema: PasskeyRegistrationOptionsSchema,
    body: {},
  });
  const { startRegistration } = await import('@simplewebauthn/browser');
  const response = await startRegistration({ optionsJSON: options as never });
  return request('POST', '/api/auth/mfa/passkeys/registration/verify', {
    schema: PasskeySchema,
    body: { ...(name ? { name } : {}), response },
  });
}

/** The second sign-in step with a code (authenticator or recovery code). */
export const verifySecondFactor = (code: string) =>
  request('POST', '/api/auth/mfa/verify', { schema: AuthResponseSchema, body: { code } });

/** The second sign-in step with a passkey. */
export async function verifyWithPasskey() {
  const options = await request('POST', '/api/auth/mfa/passkeys/authentication/options', {
    schema: PasskeyAuthenticationOptionsSchema,
    body: {},
  });
  const { startAuthentication } = await import('@simplewebauthn/browser');
  const response = await startAuthentication({ optionsJSON: options as never });
  return request('POST', '/api/auth/mfa/passkeys/authentication/verify', {
    schema: AuthResponseSchema,
    body: { response },
  });
}

/** Mutations on the account's factors refresh its status. */
function useFactorMutation<T, A>(mutationFn: (argument: A) => Promise<T>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () => queryClient.invalidateQueries({ queryKey: mfaKeys.status() }),
  });
}

export const useRemoveTotp = () =>
  useFactorMutation(() => request('DELETE', '/api/auth/mfa/totp', { schema: NoContentSchema }));

export const useRemovePasskey = () =>
  useFactorMutation((id: string) =>
    request('DELETE', `/api/auth/mfa/passkeys/${encodeURIComponent(id)}`, {
      schema: NoContentSchema,
    }),
  );

export const useRegisterPasskey = () => useFactorMutation((name?: string) => registerPasskey(name));
