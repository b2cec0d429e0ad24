import { Suspense } from 'react';
import { Route, Switch } from 'wouter';

import { LoadingScreen } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { GuestRoute } from '@/features/auth/components/guest-route';
import { ProtectedRoute } from '@/features/auth/components/protected-route';

import NotFoundRoute from './routes/not-found';
import { AppLayout, LoginRoute, RegisterRoute, signedInScreens } from './screens';

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
                  {signedInScreens.map(({ path, screen }) => (
                    <Route key={path} path={path} component={screen} />
                  ))}
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
