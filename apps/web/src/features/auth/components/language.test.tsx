import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';

import { setViewportWidth } from '@/testing/browser-shims';
import { aSession } from '@/testing/data';
import { createGateApi } from '@/testing/gate-api';
import { apiError, signedIn } from '@/testing/handlers';
import { renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';

beforeEach(() => {
  server.use(...createGateApi().handlers);
});

const signedOut = () =>
  http.get('/api/auth/me', () => apiError(401, 'UNAUTHENTICATED', 'Sign in to continue.'));

describe('languages (issue 19)', () => {
  it('offers each language named in itself on the login screen', async () => {
    server.use(signedOut());
    renderApp('/login');
    await screen.findByRole('heading', { name: 'Sign In' });

    const picker = screen.getByRole('combobox', { name: 'Language' });
    expect(
      within(picker)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['English', 'Afrikaans', 'isiZulu', 'Sesotho', 'Português']);
  });

  it('speaks isiZulu once chosen on the login screen and keeps it on this device', async () => {
    server.use(signedOut());
    const { user } = renderApp('/login');
    await screen.findByRole('heading', { name: 'Sign In' });

    await user.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'zu');

    expect(await screen.findByRole('heading', { name: 'Ngena' })).toBeInTheDocument();
    expect(screen.getByLabelText('Igama lomsebenzisi')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Ngena' })).toBeInTheDocument();
    expect(window.localStorage.getItem('ui-language')).toBe('zu');
    expect(document.documentElement.lang).toBe('zu');
  });

  it('shows a server error in the chosen language by its code', async () => {
    server.use(
      signedOut(),
      http.post('/api/auth/login', () =>
        apiError(429, 'RATE_LIMITED', 'Too many sign-in attempts. Try again in 60 seconds.'),
      ),
    );
    const { user } = renderApp('/login');
    await screen.findByRole('heading', { name: 'Sign In' });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'pt');
    await screen.findByRole('heading', { name: 'Iniciar Sessão' });

    await user.type(screen.getByLabelText('Nome de utilizador'), 'guard');
    await user.type(screen.getByLabelText('Palavra-passe'), 'secret-1');
    await user.click(screen.getByRole('button', { name: 'Iniciar Sessão' }));

    expect(
      await screen.findByText('Demasiadas tentativas. Aguarde um momento e tente novamente.'),
    ).toBeInTheDocument();
  });

  it("takes the account's language when signed in, and saves a new choice on the account", async () => {
    setViewportWidth(390);
    const session = aSession({ user: { role: 'security_guard' } });
    const saved: unknown[] = [];
    server.use(
      signedIn({ ...session, user: { ...session.user, language: 'st' } }),
      http.patch('/api/auth/preferences', async ({ request }) => {
        const body = (await request.json()) as { language: string };
        saved.push(body);
        return HttpResponse.json({ language: body.language });
      }),
    );
    const { user } = renderApp('/dashboard');

    const bottom = await screen.findByRole('navigation', { name: 'Tsamaiso e ka tlase' });
    expect(within(bottom).getByRole('link', { name: 'Hae' })).toBeInTheDocument();
    expect(saved).toEqual([]);

    await user.selectOptions(screen.getByRole('combobox', { name: 'Puo' }), 'af');

    await screen.findByRole('navigation', { name: 'Onderste navigasie' });
    await waitFor(() => expect(saved).toEqual([{ language: 'af' }]));
    expect(window.localStorage.getItem('ui-language')).toBe('af');
  });
});
