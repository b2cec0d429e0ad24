import '@testing-library/jest-dom/vitest';

import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';

import { clearToasts } from '@/hooks/use-toast';

import { installBrowserShims, setViewportWidth } from './browser-shims';
import { removeCamera } from './camera';
import { server } from './server';

installBrowserShims();
// Lazy route chunks load on first use; on a busy machine that can take longer than 1 s.
configure({ asyncUtilTimeout: 4000 });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));

beforeEach(() => {
  setViewportWidth(1280);
});

afterEach(() => {
  cleanup();
  server.resetHandlers();
  clearToasts();
  window.localStorage.clear();
  document.cookie = 'sidebar_state=; path=/; max-age=0';
  document.documentElement.className = '';
  window.history.replaceState(null, '', '/');
  removeCamera();
});

afterAll(() => server.close());
