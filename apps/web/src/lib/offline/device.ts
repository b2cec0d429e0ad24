import { env } from '@/config/env';

const DEVICE_ID_KEY = 'boomgate-device-id';

/**
 * This device's id (issue 18): generated once and kept in the browser, reported with every
 * contact so an admin can revoke a lost phone. Not a secret: the session is the credential.
 */
export function deviceId(): string {
  try {
    const existing = window.localStorage.getItem(DEVICE_ID_KEY);
    if (existing) return existing;
    const created = crypto.randomUUID();
    window.localStorage.setItem(DEVICE_ID_KEY, created);
    return created;
  } catch {
    return crypto.randomUUID();
  }
}

/** What the browser and platform call this device, for the admin's list. */
function deviceLabel(): string | undefined {
  if (typeof navigator === 'undefined') return undefined;
  const label = navigator.userAgent.trim().slice(0, 120);
  return label || undefined;
}

/**
 * POST /api/devices/contact. `revoked` only for the server's DEVICE_REVOKED; any other failure
 * (no answer, signed out) is `unknown` and the queue carries on as before.
 */
export async function contactServer(
  fetchImpl: typeof fetch = fetch,
): Promise<'ok' | 'revoked' | 'unknown'> {
  try {
    const response = await fetchImpl(`${env.API_ORIGIN}/api/devices/contact`, {
      method: 'POST',
      credentials: 'include',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ deviceId: deviceId(), label: deviceLabel() }),
    });
    if (response.ok) return 'ok';
    if (response.status !== 403) return 'unknown';
    const body = (await response.json().catch(() => null)) as { error?: { code?: unknown } } | null;
    return body?.error?.code === 'DEVICE_REVOKED' ? 'revoked' : 'unknown';
  } catch {
    return 'unknown';
  }
}
