import './index.css';
// First, before any module builds a zod schema (see the module).
import '@/lib/zod-jitless';

import { StrictMode, startTransition } from 'react';

import { loadScreenFor, preloadFirstScreen } from '@/app/screens';
import { getSession, sessionQuery } from '@/features/auth/api/get-session';
import { afterFirstScreen } from '@/lib/after-first-screen';
import { applyTheme, readStoredTheme } from '@/hooks/use-theme';
import { changeLanguage, i18nReady, isSupportedLanguage } from '@/lib/i18n';
import { createQueryClient } from '@/lib/query-client';

// Apply the saved theme before the first paint, so a dark-theme user never sees a light flash.
applyTheme(readStoredTheme());

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');

// The first load. This file stays small so the session check starts at once; React DOM and the
// app (providers, routes) arrive as chunks of their own (preloaded by index.html), each run in a
// task of its own (a timer apart: importing an already-loaded module runs it at once) while
// GET /api/auth/me and the first screen's code download, instead of one long task before them.
// The page's static shell (index.html) shows 'Loading...' meanwhile, and React renders once the
// session is known and the screen's code is there, so its first render is that screen rather
// than a loading state replaced a moment later. The routes still decide everything (redirects,
// 'Loading...' while a session is checked).
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
const reactDom = nextTask().then(() => import('react-dom/client'));
const app = reactDom.then(nextTask).then(() => import('@/app/app'));
const queryClient = createQueryClient();
const { pathname } = window.location;
void preloadFirstScreen(pathname);
// Texts: English is in the code; another language chosen on this device or on the signed-in
// account is fetched before the first render, so the screen never flashes English first.
const language = async (session: ReturnType<typeof getSession>): Promise<void> => {
  await i18nReady;
  const saved = session?.user.language;
  if (isSupportedLanguage(saved)) await changeLanguage(saved);
};
queryClient
  .prefetchQuery(sessionQuery())
  .then(() =>
    Promise.all([
      loadScreenFor(pathname, getSession(queryClient)),
      language(getSession(queryClient)),
    ]),
  )
  .then(() => Promise.all([reactDom, app]))
  .then(([{ createRoot }, { App }]) => {
    const root = createRoot(container);
    // As a transition the first render yields to the browser every few milliseconds instead of
    // blocking it for the whole screen (the static shell stays up until it commits).
    startTransition(() => {
      root.render(
        <StrictMode>
          <App queryClient={queryClient} />
        </StrictMode>,
      );
    });
  })
  .catch((error: unknown) => console.error('The app failed to start', error));

// Issue 18: the service worker (offline app shell) registers after the first screen, so it never
// competes with it; its code is a chunk of its own.
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  afterFirstScreen(() => {
    void import('@/lib/offline/register-service-worker').then((m) => m.registerServiceWorker());
  });
}
