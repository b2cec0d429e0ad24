import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect } from 'vitest';

import { App } from '@/app/app';
import { createQueryClient } from '@/lib/query-client';

/** Renders the whole app at `path`, through the real router, providers and API client. */
export function renderApp(path = '/') {
  window.history.replaceState(null, '', path);
  const queryClient = createQueryClient();
  const user = userEvent.setup();
  const view = render(<App queryClient={queryClient} />);
  return { ...view, user, queryClient };
}

export function currentPath() {
  return window.location.pathname;
}

/** Waits for the (single) toast on screen to show this title and, if given, description. */
export async function expectToast(title: string, description?: string) {
  // The toaster is lazy-loaded: its first toast in a test file waits for the chunk's import,
  // which on a busy machine takes longer than waitFor's default second.
  await waitFor(
    () => {
      const toast = screen.getByTestId('toast');
      expect(toast).toHaveTextContent(title);
      if (description !== undefined) expect(toast).toHaveTextContent(description);
    },
    { timeout: 5_000 },
  );
}
