import type { ReactNode } from 'react';

import type { AuthResponse } from '@boomgate/contracts/auth';
import { landingPathFor } from '@boomgate/contracts/role-paths';

import { paths } from '@/config/paths';
import { isUsableSession } from '@/features/auth/api/get-session';

import { type LazyScreen, lazyScreen } from './lazy-screen';

// The screens people land on (sign-in, landing pages) and the signed-in shell (sidebar, menus):
// each is its own chunk, loaded ahead on the first load (main.tsx). The other screens are in
// router.tsx.
export const LoginRoute = lazyScreen(() => import('./routes/login'), { needsScreenTexts: false });
export const RegisterRoute = lazyScreen(() => import('./routes/register'), {
  needsScreenTexts: false,
});
export const DashboardRoute = lazyScreen(() => import('./routes/dashboard'));
export const AutoGateRoute = lazyScreen(() => import('./routes/auto-gate'));
export const AppLayout = lazyScreen<{ children: ReactNode }>(() =>
  import('./layouts/app-layout').then((m) => ({ default: m.AppLayout })),
);

/** The screens people land on (sign-in, landing pages), by path. */
const landingScreens: Record<string, LazyScreen> = {
  [paths.login]: LoginRoute,
  [paths.register]: RegisterRoute,
  [paths.home]: DashboardRoute,
  [paths.dashboard]: DashboardRoute,
  [paths.autoGate]: AutoGateRoute,
};

const isGuestPath = (pathname: string) => pathname === paths.login || pathname === paths.register;

/** Loads a landing screen's code (and the signed-in shell around it); never rejects. */
function loadScreen(pathname: string): Promise<void> {
  const screen = landingScreens[pathname];
  const loads = [screen?.load(), isGuestPath(pathname) ? undefined : AppLayout.load()];
  return Promise.all(loads.filter((load) => load !== undefined)).then(
    () => undefined,
    () => undefined, // the route's own Suspense and error boundary deal with it when rendered
  );
}

/**
 * Starts downloading the first screen's code (and the signed-in shell) while GET /api/auth/me is
 * in flight, instead of after it: one network round trip less before the first screen. Only a
 * head start — the routes (router.tsx) still decide what is shown.
 */
export function preloadFirstScreen(pathname: string): Promise<void> {
  // Not at the bare address: most first loads there are visitors who are not signed in yet, for
  // whom the dashboard and the signed-in shell (about 40 KB gzip) would be downloaded for nothing.
  // A signed-in user at / waits one round trip more; deep links (/auto-gate…) keep the head start.
  if (pathname === paths.home) return Promise.resolve();
  return loadScreen(pathname);
}

/**
 * Resolves once the code of the screen the routes will show for this session has loaded
 * (the redirect target when the session sends the user elsewhere), so the first render shows that
 * screen at once instead of a Suspense fallback.
 */
export function loadScreenFor(pathname: string, session: AuthResponse | null | undefined) {
  const signedIn = isUsableSession(session);
  if (isGuestPath(pathname)) {
    return loadScreen(signedIn ? landingPathFor(session.user.role) : pathname);
  }
  return loadScreen(signedIn ? pathname : paths.login);
}
