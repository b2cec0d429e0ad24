import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import type { Role } from '@boomgate/contracts/roles';

import { i18next } from '@/lib/i18n';
import { aSession, aUser } from '@/testing/data';
import { apiError, signedIn } from '@/testing/handlers';
import { expectToast, renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';
import { createReauthApi } from '@/testing/reauth-api';
import { createUsersApi } from '@/testing/users-api';

function setUp({ role = 'tenant_admin' }: { role?: Role } = {}) {
  const session = aSession({ user: { username: 'admin', fullName: 'Ayanda Admin', role } });
  const guard = aUser({ username: 'guard1', fullName: 'Gift Guard', role: 'security_guard' });
  const clerk = aUser({
    username: 'clerk',
    fullName: null,
    role: 'back_office',
    isActive: false,
  });
  const api = createUsersApi([session.user, guard, clerk]);
  server.use(signedIn(session), ...api.handlers);
  const view = renderApp('/users');
  return { ...view, api, session, guard, clerk };
}

const row = (username: string) => screen.getByTestId(`user-row-${username}`);

describe('user management', () => {
  it('speaks the chosen language: the list, the roles and the edit dialog', async () => {
    await i18next.changeLanguage('zu');
    // The language a signed-in user picks is saved for them on the server.
    server.use(http.patch('/api/auth/preferences', () => HttpResponse.json({ language: 'zu' })));
    const { user } = setUp();

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Ukuphathwa Kwabasebenzisi' }),
    ).toBeInTheDocument();
    expect(
      await screen.findByText('Abasebenzisi ababhalisiwe enhlanganweni: 3'),
    ).toBeInTheDocument();
    expect(within(row('guard1')).getByText('Unogada')).toBeInTheDocument();
    expect(within(row('clerk')).getByText('Akasebenzi')).toBeInTheDocument();

    await user.click(within(row('guard1')).getByRole('button', { name: 'Hlela u-guard1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Hlela Umsebenzisi' });
    expect(within(dialog).getByText('guard1')).toHaveClass('font-medium');
    expect(within(dialog).getByLabelText('Iphasiwedi Entsha')).toBeInTheDocument();
  });

  it('lists the users of the organization', async () => {
    setUp();

    expect(
      await screen.findByRole('heading', { level: 1, name: 'User Management' }),
    ).toBeInTheDocument();
    expect(await screen.findByText('3 registered user(s) in organization')).toBeInTheDocument();
    const headers = screen.getAllByRole('columnheader').map((cell) => cell.textContent);
    expect(headers).toEqual(['Username', 'Full Name', 'Role', 'Status', 'Actions']);
    expect(within(row('guard1')).getByText('Gift Guard')).toBeInTheDocument();
    expect(within(row('guard1')).getByText('Security Guard')).toBeInTheDocument();
    expect(within(row('guard1')).getByText('Active')).toBeInTheDocument();
    expect(within(row('clerk')).getByText('Back Office')).toBeInTheDocument();
    expect(within(row('clerk')).getByText('Inactive')).toBeInTheDocument();
  });

  it("offers no deactivate or reactivate on the signed-in user's own row", async () => {
    setUp();
    await screen.findByText('3 registered user(s) in organization');

    const own = row('admin');
    expect(within(own).queryByRole('button', { name: /deactivate/i })).not.toBeInTheDocument();
    expect(within(own).queryByRole('button', { name: /reactivate/i })).not.toBeInTheDocument();
    expect(
      within(row('guard1')).getByRole('button', { name: 'Deactivate guard1' }),
    ).toBeInTheDocument();
    expect(
      within(row('clerk')).getByRole('button', { name: 'Reactivate clerk' }),
    ).toBeInTheDocument();
  });

  it('creates a security guard by default and refreshes the list', async () => {
    const { user, api } = setUp();
    await screen.findByText('3 registered user(s) in organization');

    await user.click(screen.getByRole('button', { name: 'Create New User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create New User' });
    expect(within(dialog).getByRole('combobox', { name: 'Role' })).toHaveTextContent(
      'Security Guard',
    );
    await user.type(within(dialog).getByLabelText('Username'), 'Lerato');
    await user.type(within(dialog).getByLabelText('Password'), 'gate-pass-1');
    await user.type(within(dialog).getByLabelText('Full Name (optional)'), 'Lerato Khumalo');
    await user.click(within(dialog).getByRole('button', { name: 'Create User' }));

    await expectToast('User Created', 'New user has been created successfully');
    expect(await screen.findByText('4 registered user(s) in organization')).toBeInTheDocument();
    expect(within(row('lerato')).getByText('Lerato Khumalo')).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Create New User' })).not.toBeInTheDocument();
    expect(api.requests).toEqual([
      {
        method: 'POST',
        path: '/api/users',
        body: {
          username: 'lerato',
          password: 'gate-pass-1',
          fullName: 'Lerato Khumalo',
          role: 'security_guard',
        },
      },
    ]);
  });

  it('creates a user with the chosen role', async () => {
    const { user, api } = setUp();
    await screen.findByText('3 registered user(s) in organization');
    await user.click(screen.getByRole('button', { name: 'Create New User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create New User' });

    await user.type(within(dialog).getByLabelText('Username'), 'office2');
    await user.type(within(dialog).getByLabelText('Password'), 'office-pass');
    await user.click(within(dialog).getByRole('combobox', { name: 'Role' }));
    await user.click(await screen.findByRole('option', { name: 'Back Office' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create User' }));

    await expectToast('User Created');
    expect(api.requests[0]?.body).toMatchObject({ username: 'office2', role: 'back_office' });
  });

  it.each<[Role, boolean]>([
    ['tenant_admin', false],
    ['super_admin', true],
  ])('for a signed-in %s, offers Super Admin: %s', async (role, isOffered) => {
    const { user } = setUp({ role });
    await screen.findByText('3 registered user(s) in organization');
    await user.click(screen.getByRole('button', { name: 'Create New User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create New User' });

    await user.click(within(dialog).getByRole('combobox', { name: 'Role' }));

    const options = (await screen.findAllByRole('option')).map((option) => option.textContent);
    expect(options).toEqual(
      isOffered
        ? ['Super Admin', 'Tenant Admin', 'Back Office', 'Security Guard']
        : ['Tenant Admin', 'Back Office', 'Security Guard'],
    );
  });

  it('shows field rules from the contract without calling the server', async () => {
    const { user, api } = setUp();
    await screen.findByText('3 registered user(s) in organization');
    await user.click(screen.getByRole('button', { name: 'Create New User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create New User' });

    await user.type(within(dialog).getByLabelText('Username'), 'newuser');
    await user.type(within(dialog).getByLabelText('Password'), '123');
    await user.click(within(dialog).getByRole('button', { name: 'Create User' }));

    expect(
      await within(dialog).findByText('Password must be at least 6 characters'),
    ).toBeInTheDocument();
    expect(api.requests).toEqual([]);
  });

  it("reports a failed creation with the server's message", async () => {
    const { user } = setUp();
    await screen.findByText('3 registered user(s) in organization');
    await user.click(screen.getByRole('button', { name: 'Create New User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create New User' });

    await user.type(within(dialog).getByLabelText('Username'), 'guard1');
    await user.type(within(dialog).getByLabelText('Password'), 'gate-pass-1');
    await user.click(within(dialog).getByRole('button', { name: 'Create User' }));

    await expectToast('Creation Failed', 'Username guard1 is already taken.');
    expect(screen.getByRole('dialog', { name: 'Create New User' })).toBeInTheDocument();
  });

  it('deactivates a user and shows the new status', async () => {
    const { user, api, guard } = setUp();
    await screen.findByText('3 registered user(s) in organization');

    await user.click(within(row('guard1')).getByRole('button', { name: 'Deactivate guard1' }));

    await expectToast('User Deactivated', 'User has been deactivated');
    await waitFor(() => expect(within(row('guard1')).getByText('Inactive')).toBeInTheDocument());
    expect(
      within(row('guard1')).getByRole('button', { name: 'Reactivate guard1' }),
    ).toBeInTheDocument();
    expect(api.requests).toEqual([
      { method: 'PATCH', path: `/api/users/${guard.id}/deactivate`, body: undefined },
    ]);
  });

  it('reactivates a user', async () => {
    const { user } = setUp();
    await screen.findByText('3 registered user(s) in organization');

    await user.click(within(row('clerk')).getByRole('button', { name: 'Reactivate clerk' }));

    await expectToast('User Reactivated', 'User has been reactivated');
    await waitFor(() => expect(within(row('clerk')).getByText('Active')).toBeInTheDocument());
  });

  it.each([
    ['deactivate', 'Deactivate guard1', 'Deactivation Failed', 'Failed to deactivate user'],
    ['reactivate', 'Reactivate clerk', 'Reactivation Failed', 'Failed to reactivate user'],
  ])('reports a failed %s, with the fallback message', async (action, button, title, fallback) => {
    const { user } = setUp();
    server.use(http.patch(`/api/users/:id/${action}`, () => new Response(null, { status: 500 })));
    await screen.findByText('3 registered user(s) in organization');

    await user.click(screen.getByRole('button', { name: button }));

    await expectToast(title, fallback);
  });

  it('reports a refused deactivation with the server message', async () => {
    const { user } = setUp();
    server.use(
      http.patch('/api/users/:id/deactivate', () =>
        apiError(403, 'FORBIDDEN', 'Only administrators can deactivate users.'),
      ),
    );
    await screen.findByText('3 registered user(s) in organization');

    await user.click(screen.getByRole('button', { name: 'Deactivate guard1' }));

    await expectToast('Deactivation Failed', 'Only administrators can deactivate users.');
  });

  it('edits a user, sending only the fields that are filled in', async () => {
    const { user, api, clerk } = setUp();
    await screen.findByText('3 registered user(s) in organization');

    await user.click(within(row('clerk')).getByRole('button', { name: 'Edit clerk' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit User' });
    expect(within(dialog).getByLabelText('New Password')).toHaveAttribute(
      'placeholder',
      'Leave blank to keep current password',
    );
    await user.type(within(dialog).getByLabelText('Full Name'), 'Charlotte Clerk');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));

    await expectToast('User Updated', 'User has been updated successfully');
    await waitFor(() =>
      expect(within(row('clerk')).getByText('Charlotte Clerk')).toBeInTheDocument(),
    );
    expect(api.requests).toEqual([
      {
        method: 'PATCH',
        path: `/api/users/${clerk.id}`,
        body: { fullName: 'Charlotte Clerk', role: 'back_office' },
      },
    ]);
  });

  it("assigns a user's sites from the Edit User dialog (issue 16)", async () => {
    const site = (id: string, name: string, isDefault = false) => ({
      id,
      name,
      timezone: 'Africa/Johannesburg',
      overstayMinutes: 720,
      isDefault,
      isActive: true,
      createdAt: '2026-01-01T00:00:00.000Z',
    });
    const north = '00000000-0000-4000-8000-0000000000b2';
    server.use(
      http.get('/api/sites', () =>
        HttpResponse.json([
          site('00000000-0000-4000-8000-0000000000b1', 'Main site', true),
          site(north, 'North Pit'),
        ]),
      ),
    );
    const { user, api, guard } = setUp();
    await screen.findByText('3 registered user(s) in organization');

    await user.click(within(row('guard1')).getByRole('button', { name: 'Edit guard1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit User' });
    await user.click(await within(dialog).findByRole('checkbox', { name: 'North Pit' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));

    await expectToast('User Updated', 'User has been updated successfully');
    expect(api.requests).toEqual([
      {
        method: 'PATCH',
        path: `/api/users/${guard.id}`,
        body: { fullName: 'Gift Guard', role: 'security_guard', siteIds: [north] },
      },
    ]);
  });

  it("resets another user's two-step verification from the Edit User dialog", async () => {
    const { user, guard } = setUp();
    const resets: string[] = [];
    server.use(
      http.post('/api/users/:id/mfa/reset', ({ params }) => {
        resets.push(String(params.id));
        return HttpResponse.json({ ok: true });
      }),
    );
    await screen.findByText('3 registered user(s) in organization');

    await user.click(within(row('guard1')).getByRole('button', { name: 'Edit guard1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit User' });
    await user.click(within(dialog).getByRole('button', { name: 'Reset Two-Step Verification' }));

    await expectToast('Two-Step Verification Reset');
    expect(resets).toEqual([guard.id]);
  });

  it('sends a new password only when one is typed', async () => {
    const { user, api } = setUp();
    await screen.findByText('3 registered user(s) in organization');

    await user.click(within(row('guard1')).getByRole('button', { name: 'Edit guard1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit User' });
    await user.type(within(dialog).getByLabelText('New Password'), 'reset-pass-9');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));

    await expectToast('User Updated');
    expect(api.requests[0]?.body).toEqual({
      fullName: 'Gift Guard',
      role: 'security_guard',
      password: 'reset-pass-9',
    });
  });

  it("reports a failed update with the server's message", async () => {
    const { user } = setUp();
    server.use(
      http.patch('/api/users/:id', () => apiError(400, 'INVALID', 'Enter a valid email address')),
    );
    await screen.findByText('3 registered user(s) in organization');

    await user.click(within(row('guard1')).getByRole('button', { name: 'Edit guard1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit User' });
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));

    await expectToast('Update Failed', 'Enter a valid email address');
  });

  it("asks for the admin's password before setting another user's password; Cancel keeps the form", async () => {
    const { user, api } = setUp();
    const reauth = createReauthApi('admin-pass-1');
    server.use(
      ...reauth.handlers,
      // SEC-25 as the server does it: a password (or new email) needs a recent sign-in.
      http.patch('/api/users/:id', async ({ request }) => {
        const body = (await request.clone().json()) as { password?: string };
        return body.password === undefined ? undefined : reauth.refusal();
      }),
    );
    await screen.findByText('3 registered user(s) in organization');

    await user.click(within(row('guard1')).getByRole('button', { name: 'Edit guard1' }));
    const editDialog = await screen.findByRole('dialog', { name: 'Edit User' });
    await user.type(within(editDialog).getByLabelText('New Password'), 'reset-pass-9');
    await user.click(within(editDialog).getByRole('button', { name: 'Save Changes' }));
    const confirm = await screen.findByRole('dialog', { name: 'Confirm your password' });
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));

    await expectToast('Update Failed', 'Password not confirmed: the request was cancelled.');
    expect(screen.getByRole('dialog', { name: 'Edit User' })).toBeInTheDocument();
    expect(api.requests).toEqual([]);

    await user.click(within(editDialog).getByRole('button', { name: 'Save Changes' }));
    const again = await screen.findByRole('dialog', { name: 'Confirm your password' });
    await user.type(within(again).getByLabelText('Password'), 'admin-pass-1');
    await user.click(within(again).getByRole('button', { name: 'Confirm' }));

    await expectToast('User Updated');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(reauth.attempts).toEqual(['admin-pass-1']);
    expect(api.requests).toEqual([
      {
        method: 'PATCH',
        path: `/api/users/${api.list().find((u) => u.username === 'guard1')?.id ?? ''}`,
        body: { fullName: 'Gift Guard', role: 'security_guard', password: 'reset-pass-9' },
      },
    ]);
  });
});
