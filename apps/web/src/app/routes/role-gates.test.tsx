import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import type { Role } from '@boomgate/contracts/roles';

import { aSession, aUser } from '@/testing/data';
import { signedIn } from '@/testing/handlers';
import { renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';
import { createUsersApi } from '@/testing/users-api';

function signInAs(role: Role) {
  const users = createUsersApi([aUser({ role: 'security_guard', username: 'guard1' })]);
  server.use(signedIn(aSession({ user: { role } })), ...users.handlers);
  return users;
}

const heading = (name: string) => screen.findByRole('heading', { level: 1, name });

// Each action is shown only to the roles the server lets use it (ACTION_ROLES, checked against
// the authorization matrix on the server side); the screens are reachable by address for all.
describe('buttons a role cannot use are not shown', () => {
  it.each(['security_guard', 'back_office'] as const)(
    "User Management offers %s no 'Create New User' and asks the server nothing",
    async (role) => {
      const users = signInAs(role);
      renderApp('/users');

      await heading('User Management');
      expect(
        screen.getByText('Only tenant and super administrators manage users.'),
      ).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Create New User' })).not.toBeInTheDocument();
      expect(users.requests).toEqual([]);
    },
  );

  it("User Management offers a tenant admin 'Create New User'", async () => {
    signInAs('tenant_admin');
    renderApp('/users');

    expect(await screen.findByRole('button', { name: 'Create New User' })).toBeInTheDocument();
  });

  it("Safety Videos offers a guard no 'Add Video' or 'Assign Video', and back office both", async () => {
    signInAs('security_guard');
    const guardView = renderApp('/safety-videos');

    await heading('Safety Videos');
    expect(screen.queryByRole('button', { name: 'Add Video' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Assign Video' })).not.toBeInTheDocument();
    guardView.unmount();

    signInAs('back_office');
    renderApp('/safety-videos');
    expect(await screen.findByRole('button', { name: 'Add Video' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Assign Video' })).toBeInTheDocument();
  });

  it.each([
    ['/onboarding', 'Onboarding'],
    ['/onboard/company', 'Company Onboarding'],
    ['/onboard/self', 'Self Onboarding'],
    ['/onboard/security', 'Security Onboarding'],
  ])('%s offers a guard nothing to start', async (path, title) => {
    signInAs('security_guard');
    renderApp(path);

    await heading(title);
    expect(
      screen.getByText('Only administrators and back office onboard drivers.'),
    ).toBeInTheDocument();
    const main = screen.getByRole('main');
    expect(within(main).queryAllByRole('link')).toEqual([]);
    expect(within(main).queryAllByRole('button')).toEqual([]);
  });

  it('Security Onboarding links User Management only for those who may create users', async () => {
    signInAs('back_office');
    const office = renderApp('/onboard/security');

    await heading('Security Onboarding');
    expect(screen.getByText(/an administrator creates the guard's account/)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'User Management' })).not.toBeInTheDocument();
    office.unmount();

    signInAs('tenant_admin');
    renderApp('/onboard/security');
    await heading('Security Onboarding');
    expect(
      within(screen.getByRole('main')).getByRole('link', { name: 'User Management' }),
    ).toHaveAttribute('href', '/users');
  });
});
