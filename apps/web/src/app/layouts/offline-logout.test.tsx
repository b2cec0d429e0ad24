import 'fake-indexeddb/auto';

import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { i18next } from '@/lib/i18n';
import { enqueueAction } from '@/lib/offline/action-queue';
import { getOfflineDb } from '@/lib/offline/offline-db';
import { aSession } from '@/testing/data';
import { createGateApi } from '@/testing/gate-api';
import { signedIn } from '@/testing/handlers';
import { currentPath, expectToast, renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';

const session = aSession({ user: { role: 'security_guard' } });

beforeEach(() => {
  server.use(...createGateApi().handlers);
});

afterEach(async () => {
  await (await getOfflineDb())?.clear('actions');
});

describe('the offline banner and logout (issue 18)', () => {
  it('shows the queue and refuses logout while an entry recorded offline is unsent', async () => {
    let logoutCalls = 0;
    server.use(
      signedIn(session),
      // The server does not answer: the banner says so and nothing is replayed.
      http.get('/api/health', () => HttpResponse.error()),
      http.post('/api/auth/logout', () => {
        logoutCalls += 1;
        return HttpResponse.json({ ok: true as const });
      }),
    );
    await enqueueAction((await getOfflineDb())!, {
      id: 'offline-entry-1',
      path: '/api/auto-gate/grant-entry',
      body: { category: 'contracted', plateNumber: 'KP35XKGP', entryGranted: true },
      userId: session.user.id,
    });
    const { user } = renderApp('/dashboard');

    expect(await screen.findByTestId('connection-state')).toHaveTextContent(
      'Offline: the server cannot be reached',
    );
    expect(await screen.findByText(/1 action saved on this device/)).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Logout' }));

    await expectToast(
      'Logout Failed',
      '1 entry recorded offline has not been sent yet. Stay signed in until the server has them.',
    );
    expect(logoutCalls).toBe(0);
    expect(currentPath()).toBe('/dashboard');
  });

  it('refuses logout in the chosen language, with its plural (issue 19)', async () => {
    await i18next.changeLanguage('pt');
    server.use(
      signedIn(session),
      http.get('/api/health', () => HttpResponse.error()),
      http.patch('/api/auth/preferences', () => HttpResponse.json({ language: 'pt' })),
    );
    for (const id of ['offline-entry-1', 'offline-entry-2']) {
      await enqueueAction((await getOfflineDb())!, {
        id,
        path: '/api/auto-gate/grant-entry',
        body: { category: 'contracted', plateNumber: 'KP35XKGP', entryGranted: true },
        userId: session.user.id,
      });
    }
    const { user } = renderApp('/dashboard');

    expect(await screen.findByText(/2 ações guardadas neste dispositivo/)).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Terminar sessão' }));

    await expectToast(
      'Falha ao Terminar Sessão',
      '2 entradas registadas sem ligação ainda não foram enviadas. Mantenha a sessão iniciada até o servidor as receber.',
    );
  });
});
