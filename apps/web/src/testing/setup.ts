import '@testing-library/jest-dom/vitest';

import { cleanup } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';

import { clearToasts } from '@/hooks/use-toast';

import { installBrowserShims, setViewportWidth } from './browser-shims';
import { server } from './server';

installBrowserShims();

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
});

afterAll(() => server.close());
