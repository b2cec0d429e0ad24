import { lazy, Suspense } from 'react';
import { Route, Switch } from 'wouter';

import { LoadingScreen } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { GuestRoute } from '@/features/auth/components/guest-route';
import { ProtectedRoute } from '@/features/auth/components/protected-route';

import NotFoundRoute from './routes/not-found';
import { AppLayout, AutoGateRoute, DashboardRoute, LoginRoute, RegisterRoute } from './screens';

// Every other screen is its own chunk too (the landing screens are in screens.tsx).
const PreArrivalRoute = lazy(() => import('./routes/pre-arrival'));
const RegisteredVehiclesRoute = lazy(() => import('./routes/registered-vehicles'));
const ScanStationRoute = lazy(() => import('./routes/scan-station'));
const RealGateRoute = lazy(() => import('./routes/real-gate'));
const WeighbridgeRoute = lazy(() => import('./routes/weighbridge'));
const OnboardingRoute = lazy(() => import('./routes/onboarding'));
const OnboardCompanyRoute = lazy(() => import('./routes/onboard-company'));
const OnboardSelfRoute = lazy(() => import('./routes/onboard-self'));
const OnboardSecurityRoute = lazy(() => import('./routes/onboard-security'));
const SafetyInductionRoute = lazy(() => import('./routes/safety-induction'));
const SafetyVideosRoute = lazy(() => import('./routes/safety-videos'));
const UsersRoute = lazy(() => import('./routes/users'));
const TruckListRoute = lazy(() => import('./routes/truck-list'));
const EntryDetailRoute = lazy(() => import('./routes/entry-detail'));
const IncomingFeedRoute = lazy(() => import('./routes/incoming-feed'));
const IntegrationsRoute = lazy(() => import('./routes/integrations'));
const SettingsRoute = lazy(() => import('./routes/settings'));
const AccountSecurityRoute = lazy(() => import('./routes/account-security'));
const WorkflowRoute = lazy(() => import('./routes/workflow'));
const AuditRoute = lazy(() => import('./routes/audit'));
const ReportsRoute = lazy(() => import('./routes/reports'));
const AlertsRoute = lazy(() => import('./routes/alerts'));
const OnSiteRoute = lazy(() => import('./routes/on-site'));
const RollCallRoute = lazy(() => import('./routes/roll-call'));
const SitesSettingsRoute = lazy(() => import('./routes/sites-settings'));

/**
 * Spec §2 routing. Signed out: /login and /register; any other path redirects to /login.
 * Signed in: the screens below inside the app shell; any other path is the 404 page.
 */
export function AppRouter() {
  return (
    <Switch>
      <Route path={paths.login}>
        <GuestRoute>
          <Suspense fallback={<LoadingScreen />}>
            <LoginRoute />
          </Suspense>
        </GuestRoute>
      </Route>
      <Route path={paths.register}>
        <GuestRoute>
          <Suspense fallback={<LoadingScreen />}>
            <RegisterRoute />
          </Suspense>
        </GuestRoute>
      </Route>
      <Route>
        <ProtectedRoute>
          <Suspense fallback={<LoadingScreen />}>
            <AppLayout>
              <Suspense fallback={<LoadingScreen />}>
                <Switch>
                  <Route path={paths.home} component={DashboardRoute} />
                  <Route path={paths.dashboard} component={DashboardRoute} />
                  <Route path={paths.autoGate} component={AutoGateRoute} />
                  <Route path="/pre-arrival" component={PreArrivalRoute} />
                  <Route path={paths.registeredVehicles} component={RegisteredVehiclesRoute} />
                  <Route path={paths.scanStation} component={ScanStationRoute} />
                  <Route path={paths.realGate} component={RealGateRoute} />
                  <Route path={paths.weighbridge} component={WeighbridgeRoute} />
                  <Route path={paths.onboarding} component={OnboardingRoute} />
                  <Route path={paths.onboardCompany} component={OnboardCompanyRoute} />
                  <Route path={paths.onboardSelf} component={OnboardSelfRoute} />
                  <Route path={paths.onboardSecurity} component={OnboardSecurityRoute} />
                  <Route path="/safety-induction/:assignmentId" component={SafetyInductionRoute} />
                  <Route path={paths.safetyVideos} component={SafetyVideosRoute} />
                  <Route path={paths.users} component={UsersRoute} />
                  <Route path={paths.truckList} component={TruckListRoute} />
                  <Route path="/entry-logs/:id" component={EntryDetailRoute} />
                  <Route path={paths.incomingFeed} component={IncomingFeedRoute} />
                  <Route path={paths.integrations} component={IntegrationsRoute} />
                  <Route path={paths.settings} component={SettingsRoute} />
                  <Route path={paths.accountSecurity} component={AccountSecurityRoute} />
                  <Route path={paths.workflow} component={WorkflowRoute} />
                  <Route path={paths.audit} component={AuditRoute} />
                  <Route path={paths.reports} component={ReportsRoute} />
                  <Route path={paths.alerts} component={AlertsRoute} />
                  <Route path={paths.onSite} component={OnSiteRoute} />
                  <Route path={paths.rollCall()} component={RollCallRoute} />
                  <Route path={paths.sitesSettings} component={SitesSettingsRoute} />
                  <Route component={NotFoundRoute} />
                </Switch>
              </Suspense>
            </AppLayout>
          </Suspense>
        </ProtectedRoute>
      </Route>
    </Switch>
  );
}
