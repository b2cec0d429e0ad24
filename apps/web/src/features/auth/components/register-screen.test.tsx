import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import type { AuthResponse, RegisterBody } from '@boomgate/contracts/auth';

import { aSession } from '@/testing/data';
import { apiError } from '@/testing/handlers';
import { currentPath, expectToast, renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';

type Form = {
  organizationName: string;
  fullName: string;
  email: string;
  username: string;
  password: string;
  confirmPassword: string;
};

const complete: Form = {
  organizationName: 'Kumba Iron Ore',
  fullName: 'Naledi Mokoena',
  email: '',
  username: 'Naledi',
  password: 'secret-1',
  confirmPassword: 'secret-1',
};

const labels: Record<keyof Form, string> = {
  organizationName: 'Organization Name',
  fullName: 'Full Name',
  email: 'Email (optional)',
  username: 'Username',
  password: 'Password',
  confirmPassword: 'Confirm Password',
};

function registerAnswers(response: () => Response) {
  const sent: RegisterBody[] = [];
  server.use(
    http.post<never, RegisterBody>('/api/auth/register', async ({ request }) => {
      sent.push(await request.json());
      return response();
    }),
  );
  return sent;
}

async function fillAndSubmit(user: ReturnType<typeof renderApp>['user'], form: Form) {
  await screen.findByRole('heading', { name: 'Create Account' });
  for (const [field, value] of Object.entries(form) as [keyof Form, string][]) {
    if (value) await user.type(screen.getByLabelText(labels[field]), value);
  }
  await user.click(screen.getByRole('button', { name: 'Create Account' }));
}

describe('register screen', () => {
  it.each<[string, Partial<Form>, string]>([
    ['organization name', { organizationName: '' }, 'Please fill in all required fields'],
    ['full name', { fullName: '  ' }, 'Please fill in all required fields'],
    ['confirmation', { confirmPassword: '' }, 'Please fill in all required fields'],
    [
      'short password',
      { password: 'abc', confirmPassword: 'abc' },
      'Password must be at least 6 characters',
    ],
    ['mismatch', { confirmPassword: 'secret-2' }, 'Passwords do not match'],
  ])('rejects a form with a bad %s', async (_case, change, message) => {
    const sent = registerAnswers(() => HttpResponse.json(aSession(), { status: 201 }));
    const { user } = renderApp('/register');

    await fillAndSubmit(user, { ...complete, ...change });

    await expectToast('Validation Error', message);
    expect(sent).toEqual([]);
  });

  it('creates the account and starts onboarding', async () => {
    const sent = registerAnswers(() =>
      HttpResponse.json<AuthResponse>(aSession({ user: { fullName: 'Naledi Mokoena' } }), {
        status: 201,
      }),
    );
    const { user } = renderApp('/register');

    await fillAndSubmit(user, complete);

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Onboarding' }),
    ).toBeInTheDocument();
    expect(currentPath()).toBe('/onboarding');
    await expectToast(
      'Registration Successful',
      "Welcome, Naledi Mokoena! Let's get started with onboarding.",
    );
    expect(sent).toEqual([
      {
        organizationName: 'Kumba Iron Ore',
        fullName: 'Naledi Mokoena',
        username: 'naledi',
        password: 'secret-1',
      },
    ]);
  });

  it('sends the email when one is given', async () => {
    const sent = registerAnswers(() => HttpResponse.json(aSession(), { status: 201 }));
    const { user } = renderApp('/register');

    await fillAndSubmit(user, { ...complete, email: 'naledi@kumba.example' });

    await screen.findByRole('heading', { level: 1, name: 'Onboarding' });
    expect(sent[0]).toMatchObject({ email: 'naledi@kumba.example' });
  });

  it("shows the server's message and the inline failure text when registration fails", async () => {
    registerAnswers(() => apiError(409, 'CONFLICT', 'That username is taken.'));
    const { user } = renderApp('/register');

    await fillAndSubmit(user, complete);

    await expectToast('Registration Failed', 'That username is taken.');
    expect(
      screen.getByText('Registration failed. Please check your information.'),
    ).toBeInTheDocument();
    expect(currentPath()).toBe('/register');
  });

  it('falls back to a generic message when the server sends none', async () => {
    registerAnswers(() => new HttpResponse(null, { status: 500 }));
    const { user } = renderApp('/register');

    await fillAndSubmit(user, complete);

    await expectToast('Registration Failed', 'Failed to create account');
  });

  it('links back to sign in', async () => {
    const { user } = renderApp('/register');

    await user.click(await screen.findByRole('link', { name: 'Sign In' }));

    expect(await screen.findByRole('heading', { name: 'Sign In' })).toBeInTheDocument();
    expect(currentPath()).toBe('/login');
  });
});
