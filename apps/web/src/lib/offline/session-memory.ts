import type { AuthResponse } from '@boomgate/contracts/auth';

const KEY = 'boomgate-last-session';

/**
 * The last session the server confirmed, so the app opens for its guard while the server cannot
 * be reached (the server still checks the cookie on every request once it answers). Forgotten on
 * a 401 and on logout.
 */
export function rememberSession(session: AuthResponse | null) {
  try {
    if (session) window.localStorage.setItem(KEY, JSON.stringify(session));
    else window.localStorage.removeItem(KEY);
  } catch {
    // Storage full or disabled: nothing is remembered, the app is online-only.
  }
}

/** The remembered session as stored (the caller parses it with the contract). */
export function recallSession(): unknown {
  try {
    const stored = window.localStorage.getItem(KEY);
    return stored ? (JSON.parse(stored) as unknown) : null;
  } catch {
    return null;
  }
}
