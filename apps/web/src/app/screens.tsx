import type { ReactNode } from 'react';
import { parse as parseRoutePattern } from 'regexparam';
import { matchRoute } from 'wouter';

import type { AuthResponse } from '@boomgate/contracts/auth';
import { landingPathFor } from '@boomgate/contracts/role-paths';

import { paths } from '@/config/paths';
import { isUsableSession } from '@/features/auth/api/get-session';

import { type LazyScreen, lazyScreen } from './lazy-screen';

// Every screen is its own chunk, and so is the signed-in shell (sidebar, menus). On the first
// load the screen at the address (any deep link, not only the landing pages) is downloaded while
// the session is checked (main.tsx), and React's first render shows it at once.
export const LoginRoute = lazyScreen(() => import('./routes/login'), { needsScreenTexts: false });
export const RegisterRoute = lazyScreen(() => import('./routes/register'), {
  needsScreenTexts: false,
});
export const AppLayout = lazyScreen<{ children: ReactNode }>(() =>
  import('./layouts/app-layout').then((m) => ({ default: m.AppLayout })),
);
const DashboardRoute = lazyScreen(() => import('./routes/dashboard'));

/**
 * The signed-in screens by route pattern, in the order the router tries them (wouter's patterns,
 * matched by the same parser here and in the router).
 */
export const signedInScreens: readonly { path: string; screen: LazyScreen }[] = [
  { path: paths.home, screen: DashboardRoute },
  { path: paths.dashboard, screen: DashboardRoute },
  { path: paths.autoGate, screen: lazyScreen(() => import('./routes/auto-gate')) },
  { path: paths.preArrival(), screen: lazyScreen(() => import('./routes/pre-arrival')) },
  {
    path: paths.registeredVehicles,
    screen: lazyScreen(() => import('./routes/registered-vehicles')),
  },
  { path: paths.scanStation, screen: lazyScreen(() => import('./routes/scan-station')) },
  { path: paths.realGate, screen: lazyScreen(() => import('./routes/real-gate')) },
  { path: paths.weighbridge, screen: lazyScreen(() => import('./routes/weighbridge')) },
  { path: paths.onboarding, screen: lazyScreen(() => import('./routes/onboarding')) },
  { path: paths.onboardCompany, screen: lazyScreen(() => import('./routes/onboard-company')) },
  { path: paths.onboardSelf, screen: lazyScreen(() => import('./routes/onboard-self')) },
  { path: paths.onboardSecurity, screen: lazyScreen(() => import('./routes/onboard-security')) },
  {
    path: '/safety-induction/:assignmentId',
    screen: lazyScreen(() => import('./routes/safety-induction')),
  },
  { path: paths.safetyVideos, screen: lazyScreen(() => import('./routes/safety-videos')) },
  { path: paths.users, screen: lazyScreen(() => import('./routes/users')) },
  { path: paths.truckList, screen: lazyScreen(() => import('./routes/truck-list')) },
  { path: '/entry-logs/:id', screen: lazyScreen(() => import('./routes/entry-detail')) },
  { path: paths.incomingFeed, screen: lazyScreen(() => import('./routes/incoming-feed')) },
  { path: paths.integrations, screen: lazyScreen(() => import('./routes/integrations')) },
  { path: paths.settings, screen: lazyScreen(() => import('./routes/settings')) },
  { path: paths.accountSecurity, screen: lazyScreen(() => import('./routes/account-security')) },
  { path: paths.workflow, screen: lazyScreen(() => import('./routes/workflow')) },
  { path: paths.audit, screen: lazyScreen(() => import('./routes/audit')) },
  { path: paths.reports, screen: lazyScreen(() => import('./routes/reports')) },
  { path: paths.alerts, screen: lazyScreen(() => import('./routes/alerts')) },
  { path: paths.onSite, screen: lazyScreen(() => import('./routes/on-site')) },
  { path: paths.rollCall(), screen: lazyScreen(() => import('./routes/roll-call')) },
  { path: paths.sitesSettings, screen: lazyScreen(() => import('./routes/sites-settings')) },
];

const isGuestPath = (pathname: string) => pathname === paths.login || pathname === paths.register;

/** The screen the router will show at a path (undefined: the 404 page, which is in the app). */
export function screenAt(pathname: string): LazyScreen | undefined {
  if (pathname === paths.login) return LoginRoute;
  if (pathname === paths.register) return RegisterRoute;
  return signedInScreens.find(({ path }) => matchRoute(parseRoutePattern, path, pathname)[0])
    ?.screen;
}

/** Loads a screen's code (and the signed-in shell around it); never rejects. */
function loadScreen(pathname: string): Promise<void> {
  const loads = [screenAt(pathname)?.load(), isGuestPath(pathname) ? undefined : AppLayout.load()];
  return Promise.all(loads.filter((load) => load !== undefined)).then(
    () => undefined,
    () => undefined, // the route's own Suspense and error boundary deal with it when rendered
  );
}

/**
 * Starts downloading the first screen's code (and the signed-in shell) while GET /api/auth/me is
 * in flight, instead of after it: one network round trip less before the first screen, and no
 * Suspense fallback (which React keeps up for at least 300 ms once shown). Only a head start —
 * the routes (router.tsx) still decide what is shown.
 */
export function preloadFirstScreen(pathname: string): Promise<void> {
  // Not at the bare address: most first loads there are visitors who are not signed in yet, for
  // whom the dashboard and the signed-in shell (about 40 KB gzip) would be downloaded for nothing.
  // A signed-in user at / waits one round trip more; deep links (/reports…) keep the head start.
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
