import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import type { ApiError } from '@boomgate/contracts/api-error';
import type { AuthResponse, ChangePasswordBody, LoginBody } from '@boomgate/contracts/auth';
import type { Role } from '@boomgate/contracts/roles';

import { aSession } from '@/testing/data';
import { aDashboard } from '@/testing/gate-api';
import { apiError } from '@/testing/handlers';
import { currentPath, expectToast, renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';

/**
 * POST /api/auth/login answering with `session`, and recording what was sent. The screens a sign-in
 * lands on get their data too (an empty dashboard and feed), so no request goes unanswered.
 */
function loginAnswers(session: AuthResponse) {
  const sent: LoginBody[] = [];
  server.use(
    http.get('/api/dashboard', () => HttpResponse.json(aDashboard())),
    http.get('/api/webhook/pending-requests', () => HttpResponse.json([])),
    http.post<never, LoginBody, AuthResponse>('/api/auth/login', async ({ request }) => {
      sent.push(await request.json());
      return HttpResponse.json(session);
    }),
  );
  return sent;
}

async function signIn(
  user: ReturnType<typeof renderApp>['user'],
  { username = 'thandi', password = 'initial-pass' } = {},
) {
  await user.type(await screen.findByLabelText('Username'), username);
  await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Sign In' }));
}

describe('login screen', () => {
  it('has username and password fields and a link to create an account', async () => {
    renderApp('/login');

    expect(await screen.findByLabelText('Username')).toHaveAttribute('autocomplete', 'username');
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'password');
    expect(screen.getByRole('link', { name: 'Create Account' })).toHaveAttribute(
      'href',
      '/register',
    );
  });

  it('asks for both fields before calling the server', async () => {
    const sent = loginAnswers(aSession());
    const { user } = renderApp('/login');

    await user.type(await screen.findByLabelText('Username'), 'thandi');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));

    await expectToast('Validation Error', 'Please enter both username and password');
    expect(sent).toEqual([]);
  });

  it("shows the server's message and the inline failure text when sign-in fails", async () => {
    server.use(
      http.post('/api/auth/login', () =>
        apiError(401, 'UNAUTHENTICATED', 'Incorrect username or password.'),
      ),
    );
    const { user } = renderApp('/login');

    await signIn(user);

    await expectToast('Login Failed', 'Incorrect username or password.');
    expect(
      screen.getByText('Authentication failed. Please verify your credentials.'),
    ).toBeInTheDocument();
    expect(currentPath()).toBe('/login');
  });

  it('falls back to a generic message when the server sends none', async () => {
    server.use(http.post('/api/auth/login', () => new HttpResponse(null, { status: 500 })));
    const { user } = renderApp('/login');

    await signIn(user);

    await expectToast('Login Failed', 'Invalid username or password');
  });

  it.each<[Role, string, string]>([
    ['security_guard', '/auto-gate', 'Automated Gate Entry'],
    ['tenant_admin', '/', 'System Dashboard'],
    ['super_admin', '/', 'System Dashboard'],
    ['back_office', '/incoming-feed', 'Incoming Feed'],
  ])('welcomes a %s and lands on %s', async (role, path, heading) => {
    const sent = loginAnswers(aSession({ user: { role, fullName: 'Thandi Nkosi' } }));
    const { user } = renderApp('/login');

    await signIn(user, { username: ' thandi ', password: 'pw' });

    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
    expect(currentPath()).toBe(path);
    await expectToast('Login Successful', 'Welcome back, Thandi Nkosi');
    expect(sent).toEqual([{ username: 'thandi', password: 'pw' }]);
  });
});

describe('forced password change after login', () => {
  function changePasswordAnswers(response: () => Response) {
    const sent: ChangePasswordBody[] = [];
    server.use(
      http.post<never, ChangePasswordBody, AuthResponse | ApiError>(
        '/api/auth/change-password',
        async ({ request }) => {
          sent.push(await request.json());
          return response();
        },
      ),
    );
    return sent;
  }

  it('opens the modal instead of signing in', async () => {
    loginAnswers(aSession({ user: { role: 'security_guard' }, requirePasswordChange: true }));
    const { user } = renderApp('/login');

    await signIn(user);

    const dialog = await screen.findByRole('dialog', { name: 'Change Password' });
    expect(within(dialog).getByLabelText('New Password')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Confirm New Password')).toBeInTheDocument();
    await expectToast('Password Change Required', 'Please change your password to continue');
    expect(currentPath()).toBe('/login');
  });

  it.each([
    ['', '', 'Please fill in all fields'],
    ['abc12', 'abc12', 'Password must be at least 6 characters'],
    ['new-secret', 'new-secre', 'Passwords do not match'],
  ])('rejects "%s" / "%s" with "%s"', async (newPassword, confirmation, message) => {
    loginAnswers(aSession({ requirePasswordChange: true }));
    const sent = changePasswordAnswers(() => HttpResponse.json(aSession()));
    const { user } = renderApp('/login');
    await signIn(user);
    const dialog = await screen.findByRole('dialog', { name: 'Change Password' });

    if (newPassword) await user.type(within(dialog).getByLabelText('New Password'), newPassword);
    if (confirmation) {
      await user.type(within(dialog).getByLabelText('Confirm New Password'), confirmation);
    }
    await user.click(within(dialog).getByRole('button', { name: 'Change Password' }));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent(message);
    expect(sent).toEqual([]);
  });

  it.each<[Role, string, string]>([
    ['security_guard', '/auto-gate', 'Automated Gate Entry'],
    ['tenant_admin', '/', 'System Dashboard'],
    ['back_office', '/', 'System Dashboard'],
  ])(
    'changes the password with the login password as current and sends a %s to %s',
    async (role, path, heading) => {
      loginAnswers(aSession({ user: { role }, requirePasswordChange: true }));
      const sent = changePasswordAnswers(() => HttpResponse.json(aSession({ user: { role } })));
      const { user } = renderApp('/login');
      await signIn(user, { password: 'temporary1' });
      const dialog = await screen.findByRole('dialog', { name: 'Change Password' });

      await user.type(within(dialog).getByLabelText('New Password'), 'brand-new-1');
      await user.type(within(dialog).getByLabelText('Confirm New Password'), 'brand-new-1');
      await user.click(within(dialog).getByRole('button', { name: 'Change Password' }));

      expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
      expect(currentPath()).toBe(path);
      expect(sent).toEqual([{ currentPassword: 'temporary1', newPassword: 'brand-new-1' }]);
      await expectToast('Password Changed', 'Your password has been updated successfully');
    },
  );

  it('reports a failed change and stays on the modal', async () => {
    loginAnswers(aSession({ requirePasswordChange: true }));
    changePasswordAnswers(() => apiError(400, 'INVALID', 'Choose a password you have not used.'));
    const { user } = renderApp('/login');
    await signIn(user);
    const dialog = await screen.findByRole('dialog', { name: 'Change Password' });

    await user.type(within(dialog).getByLabelText('New Password'), 'brand-new-1');
    await user.type(within(dialog).getByLabelText('Confirm New Password'), 'brand-new-1');
    await user.click(within(dialog).getByRole('button', { name: 'Change Password' }));

    await expectToast('Password Change Failed', 'Choose a password you have not used.');
    expect(screen.getByRole('dialog', { name: 'Change Password' })).toBeInTheDocument();
    await waitFor(() => expect(currentPath()).toBe('/login'));
  });

  it('falls back to a generic message when the change fails without one', async () => {
    loginAnswers(aSession({ requirePasswordChange: true }));
    changePasswordAnswers(() => new HttpResponse(null, { status: 502 }));
    const { user } = renderApp('/login');
    await signIn(user);
    const dialog = await screen.findByRole('dialog', { name: 'Change Password' });

    await user.type(within(dialog).getByLabelText('New Password'), 'brand-new-1');
    await user.type(within(dialog).getByLabelText('Confirm New Password'), 'brand-new-1');
    await user.click(within(dialog).getByRole('button', { name: 'Change Password' }));

    await expectToast('Password Change Failed', 'Failed to change password');
  });
});
