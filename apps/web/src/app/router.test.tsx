import { http, HttpResponse } from 'msw';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { aSession } from '@/testing/data';
import { signedIn, slowSignedOut } from '@/testing/handlers';
import { currentPath, renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';
import { createUsersApi } from '@/testing/users-api';
import { createGateApi } from '@/testing/gate-api';

describe('routing when signed out', () => {
  it("shows 'Loading...' while the session is checked, then redirects to /login", async () => {
    server.use(slowSignedOut(50));

    renderApp('/users');

    expect(screen.getByText('Loading...')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    expect(currentPath()).toBe('/login');
  });

  it.each(['/', '/dashboard', '/no-such-page'])('shows the login screen at %s', async (path) => {
    renderApp(path);

    expect(await screen.findByRole('heading', { name: 'Sign In' })).toBeInTheDocument();
    expect(currentPath()).toBe('/login');
  });

  it('treats a session that still owes its password change as signed out', async () => {
    server.use(signedIn(aSession({ requirePasswordChange: true })));

    renderApp('/dashboard');

    expect(await screen.findByRole('heading', { name: 'Sign In' })).toBeInTheDocument();
    expect(currentPath()).toBe('/login');
  });

  it('shows the registration screen at /register', async () => {
    renderApp('/register');

    expect(await screen.findByRole('heading', { name: 'Create Account' })).toBeInTheDocument();
    expect(currentPath()).toBe('/register');
  });
});

describe('routing when signed in', () => {
  it.each([
    ['/', 'System Dashboard'],
    ['/dashboard', 'System Dashboard'],
    ['/auto-gate', 'Automated Gate Entry'],
    ['/pre-arrival', 'Pre-Arrival Registration'],
    ['/registered-vehicles', 'Registered Vehicles'],
    ['/scan-station', 'Document Scan Station'],
    ['/real-gate', 'Real Gate Entry'],
    ['/weighbridge', 'Weighbridge Station'],
    ['/onboarding', 'Onboarding'],
    ['/onboard/company', 'Company Onboarding'],
    ['/onboard/self', 'Self Onboarding'],
    ['/onboard/security', 'Security Onboarding'],
    ['/safety-induction/assignment-42', 'Safety Induction'],
    ['/safety-videos', 'Safety Videos'],
    ['/users', 'User Management'],
    ['/truck-list', 'Truck List'],
    ['/incoming-feed', 'Incoming Feed'],
    ['/workflow', 'Gate Workflow'],
  ])('shows %s as "%s"', async (path, title) => {
    const session = aSession({ user: { role: 'tenant_admin' } });
    server.use(
      signedIn(session),
      ...createUsersApi([session.user]).handlers,
      ...createGateApi().handlers,
      http.get('/api/webhook/pending-requests', () => HttpResponse.json([])),
    );

    renderApp(path);

    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
    expect(currentPath()).toBe(path);
  });

  it("shows '404 Page Not Found' for an unknown path", async () => {
    server.use(signedIn(aSession()));

    renderApp('/no-such-page');

    expect(
      await screen.findByRole('heading', { level: 1, name: '404 Page Not Found' }),
    ).toBeInTheDocument();
    expect(currentPath()).toBe('/no-such-page');
  });

  it('sends a signed-in user away from /login to their landing page', async () => {
    server.use(signedIn(aSession({ user: { role: 'security_guard' } })));

    renderApp('/login');

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Automated Gate Entry' }),
    ).toBeInTheDocument();
    await waitFor(() => expect(currentPath()).toBe('/auto-gate'));
  });

  it('passes the plate from Auto Gate to Pre-Arrival', async () => {
    server.use(signedIn(aSession()));

    renderApp('/pre-arrival?plate=CA123456');

    expect(await screen.findByLabelText('Plate Number')).toHaveValue('CA123456');
  });
});
