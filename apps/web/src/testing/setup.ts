import '@testing-library/jest-dom/vitest';

import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';

import { clearToasts } from '@/hooks/use-toast';
import { i18next, loadScreenTexts } from '@/lib/i18n';

import { installBrowserShims, setViewportWidth } from './browser-shims';
import { removeCamera } from './camera';
import { server } from './server';

installBrowserShims();
// Lazy route chunks load on first use; on a busy machine that can take seconds. Only a failing wait
// runs this long (the test timeout, 20 s, is in vitest.config.ts).
configure({ asyncUtilTimeout: 8000 });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
// Screens are rendered here without the signed-in shell that fetches their texts in the app
// (app/lazy-screen.tsx): every catalogue is loaded before the first test instead.
beforeAll(() => loadScreenTexts());

beforeEach(() => {
  setViewportWidth(1280);
});

afterEach(async () => {
  cleanup();
  // One i18next instance per test file: a test that switched language hands back English.
  if (i18next.language !== 'en') await i18next.changeLanguage('en');
  server.resetHandlers();
  clearToasts();
  window.localStorage.clear();
  document.cookie = 'sidebar_state=; path=/; max-age=0';
  document.documentElement.className = '';
  window.history.replaceState(null, '', '/');
  removeCamera();
});

afterAll(() => server.close());
