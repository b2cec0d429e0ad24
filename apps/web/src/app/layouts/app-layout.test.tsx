import { screen, waitFor, within } from '@testing-library/react';
import { http } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';

import { aSession } from '@/testing/data';
import { createGateApi } from '@/testing/gate-api';
import { apiError, logoutSucceeds, signedIn } from '@/testing/handlers';
import { setViewportWidth } from '@/testing/browser-shims';
import { currentPath, expectToast, renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';

// The screens behind the shell (the dashboard, mostly) read the gate API.
beforeEach(() => {
  server.use(...createGateApi().handlers);
});

const mainNav = () => screen.getByRole('navigation', { name: 'Main' });

describe('desktop sidebar', () => {
  it('shows the product, the user and the tenant', async () => {
    server.use(
      signedIn(aSession({ user: { fullName: 'Sipho Dlamini' }, tenant: { name: 'Kumba Mine' } })),
    );

    renderApp('/dashboard');

    const sidebar = await screen.findByTestId('sidebar');
    expect(within(sidebar).getByText('Boomgate')).toBeInTheDocument();
    expect(within(sidebar).getByText('Sipho Dlamini')).toBeInTheDocument();
    expect(within(sidebar).getByText('Kumba Mine')).toBeInTheDocument();
    expect(within(sidebar).getByRole('button', { name: 'Logout' })).toBeInTheDocument();
  });

  it('shows the username when the user has no full name', async () => {
    server.use(signedIn(aSession({ user: { username: 'guard7', fullName: null } })));

    renderApp('/dashboard');

    expect(await screen.findByText('guard7')).toBeInTheDocument();
  });

  it('hides Onboarding and User Management from a security guard', async () => {
    server.use(signedIn(aSession({ user: { role: 'security_guard' } })));

    renderApp('/auto-gate');
    await screen.findByTestId('sidebar');

    const links = within(mainNav())
      .getAllByRole('link')
      .map((link) => link.textContent);
    expect(links).toContain('Incoming Feed');
    expect(links).toContain('Truck List');
    expect(links).not.toContain('Onboarding');
    expect(links).not.toContain('User Management');
  });

  it('shows Onboarding but not User Management to back office', async () => {
    server.use(signedIn(aSession({ user: { role: 'back_office' } })));

    renderApp('/incoming-feed');
    await screen.findByTestId('sidebar');

    const links = within(mainNav())
      .getAllByRole('link')
      .map((link) => link.textContent);
    expect(links).toEqual(expect.arrayContaining(['Incoming Feed', 'Truck List', 'Onboarding']));
    expect(links).not.toContain('User Management');
  });

  it('shows Onboarding and User Management to a tenant admin', async () => {
    server.use(signedIn(aSession({ user: { role: 'tenant_admin' } })));

    renderApp('/dashboard');
    await screen.findByTestId('sidebar');

    const links = within(mainNav())
      .getAllByRole('link')
      .map((link) => link.textContent);
    expect(links).toEqual(
      expect.arrayContaining(['Incoming Feed', 'Truck List', 'Onboarding', 'User Management']),
    );
  });

  it('collapses and expands with Ctrl+B and remembers the state in a cookie', async () => {
    server.use(signedIn(aSession()));
    const { user } = renderApp('/dashboard');
    const sidebar = await screen.findByTestId('sidebar');
    expect(sidebar).toHaveAttribute('data-state', 'expanded');

    await user.keyboard('{Control>}b{/Control}');

    expect(sidebar).toHaveAttribute('data-state', 'collapsed');
    expect(document.cookie).toContain('sidebar_state=false');

    await user.click(screen.getByRole('button', { name: 'Toggle Sidebar' }));

    expect(sidebar).toHaveAttribute('data-state', 'expanded');
    expect(document.cookie).toContain('sidebar_state=true');
  });

  it('starts collapsed when the cookie says so', async () => {
    document.cookie = 'sidebar_state=false; path=/';
    server.use(signedIn(aSession()));

    renderApp('/dashboard');

    expect(await screen.findByTestId('sidebar')).toHaveAttribute('data-state', 'collapsed');
  });

  it('signs out to /login', async () => {
    server.use(signedIn(aSession()), logoutSucceeds());
    const { user } = renderApp('/dashboard');

    await user.click(await screen.findByRole('button', { name: 'Logout' }));

    expect(await screen.findByRole('heading', { name: 'Sign In' })).toBeInTheDocument();
    expect(currentPath()).toBe('/login');
  });

  it('reports a failed sign-out', async () => {
    server.use(
      signedIn(aSession()),
      http.post('/api/auth/logout', () => apiError(500, 'INTERNAL', 'Session store unavailable.')),
    );
    const { user } = renderApp('/dashboard');

    await user.click(await screen.findByRole('button', { name: 'Logout' }));

    await expectToast('Logout Failed', 'Session store unavailable.');
    expect(currentPath()).toBe('/dashboard');
  });
});

describe('theme', () => {
  it('defaults to light and persists the toggled theme under ui-theme', async () => {
    server.use(signedIn(aSession()));
    const { user } = renderApp('/dashboard');
    await screen.findByTestId('sidebar');
    expect(document.documentElement).toHaveClass('light');

    await user.click(screen.getByRole('button', { name: 'Toggle theme' }));

    expect(document.documentElement).toHaveClass('dark');
    expect(window.localStorage.getItem('ui-theme')).toBe('dark');
  });

  it('starts from the stored theme', async () => {
    window.localStorage.setItem('ui-theme', 'dark');

    renderApp('/login');

    await screen.findByRole('heading', { name: 'Sign In' });
    expect(document.documentElement).toHaveClass('dark');
  });
});

describe('mobile layout', () => {
  it('shows the bottom navigation instead of the sidebar', async () => {
    setViewportWidth(390);
    server.use(signedIn(aSession()));

    renderApp('/dashboard');

    const bottomNav = await screen.findByRole('navigation', { name: 'Bottom navigation' });
    expect(screen.queryByTestId('sidebar')).not.toBeInTheDocument();
    expect(within(bottomNav).getByRole('link', { name: 'Home' })).toHaveAttribute(
      'href',
      '/dashboard',
    );
    expect(within(bottomNav).getByRole('link', { name: 'Auto Gate' })).toHaveAttribute(
      'href',
      '/auto-gate',
    );
    expect(within(bottomNav).getByRole('link', { name: 'Register' })).toHaveAttribute(
      'href',
      '/pre-arrival',
    );
  });

  it('opens the Menu drawer with the secondary screens and Logout', async () => {
    setViewportWidth(390);
    server.use(signedIn(aSession({ user: { role: 'tenant_admin' } })));
    const { user } = renderApp('/dashboard');

    await user.click(await screen.findByRole('button', { name: 'Menu' }));

    const drawer = await screen.findByRole('dialog', { name: 'Menu' });
    const links = within(drawer)
      .getAllByRole('link')
      .map((link) => link.textContent);
    expect(links).toEqual([
      'Truck List',
      'Registered Vehicles',
      'Real Gate Entry',
      'Weighbridge',
      'User Management',
    ]);
    expect(within(drawer).getByRole('button', { name: 'Logout' })).toBeInTheDocument();
  });

  it("shows 'Logging out...' while signing out", async () => {
    setViewportWidth(390);
    let finishLogout = () => {};
    server.use(
      signedIn(aSession()),
      http.post(
        '/api/auth/logout',
        () =>
          new Promise<Response>((resolve) => {
            finishLogout = () => resolve(apiError(503, 'UNAVAILABLE', 'Try again.'));
          }),
      ),
    );
    const { user } = renderApp('/dashboard');
    await user.click(await screen.findByRole('button', { name: 'Menu' }));
    const drawer = await screen.findByRole('dialog', { name: 'Menu' });

    await user.click(within(drawer).getByRole('button', { name: 'Logout' }));

    expect(await within(drawer).findByRole('button', { name: 'Logging out...' })).toBeDisabled();
    finishLogout();
    await expectToast('Logout Failed', 'Try again.');
    await waitFor(() =>
      expect(within(drawer).getByRole('button', { name: 'Logout' })).toBeEnabled(),
    );
  });

  it('switches layout when the window narrows', async () => {
    server.use(signedIn(aSession()));
    renderApp('/dashboard');
    await screen.findByTestId('sidebar');

    setViewportWidth(768);

    expect(
      await screen.findByRole('navigation', { name: 'Bottom navigation' }),
    ).toBeInTheDocument();
    expect(screen.queryByTestId('sidebar')).not.toBeInTheDocument();
  });
});

describe('a successful mobile sign-out', () => {
  it('reloads the app at /login', async () => {
    setViewportWidth(390);
    const assigned: string[] = [];
    const originalLocation = window.location;
    Object.defineProperty(window, 'location', {
      configurable: true,
      value: { ...originalLocation, assign: (url: string) => assigned.push(url) },
    });
    try {
      server.use(signedIn(aSession()), logoutSucceeds());
      const { user } = renderApp('/dashboard');
      await user.click(await screen.findByRole('button', { name: 'Menu' }));
      const drawer = await screen.findByRole('dialog', { name: 'Menu' });

      await user.click(within(drawer).getByRole('button', { name: 'Logout' }));

      await waitFor(() => expect(assigned).toEqual(['/login']));
    } finally {
      Object.defineProperty(window, 'location', { configurable: true, value: originalLocation });
    }
  });
});

describe('switching between the desktop and mobile layouts', () => {
  it('keeps the screen and what was typed into it (a tablet turned on its side)', async () => {
    server.use(signedIn(aSession()));
    const { user } = renderApp('/pre-arrival');
    await user.type(await screen.findByLabelText('Driver Name'), 'Sipho Nkosi');

    setViewportWidth(768);
    expect(
      await screen.findByRole('navigation', { name: 'Bottom navigation' }),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Driver Name')).toHaveValue('Sipho Nkosi');

    setViewportWidth(1024);
    expect(await screen.findByTestId('sidebar')).toBeInTheDocument();
    expect(screen.getByLabelText('Driver Name')).toHaveValue('Sipho Nkosi');
  });
});
