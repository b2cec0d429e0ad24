import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import type { AuthResponse, LoginResponse } from '@boomgate/contracts/auth';

import { aSession } from '@/testing/data';
import { aDashboard } from '@/testing/gate-api';
import { apiError } from '@/testing/handlers';
import { currentPath, expectToast, renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';

/** The password step answering `first`; the landing screens get their data. */
function loginAnswers(first: LoginResponse) {
  server.use(
    http.get('/api/dashboard', () => HttpResponse.json(aDashboard())),
    http.get('/api/webhook/pending-requests', () => HttpResponse.json([])),
    http.get('/api/entry-logs', () => HttpResponse.json([])),
    http.post('/api/auth/login', () => HttpResponse.json(first)),
  );
}

async function signIn(user: ReturnType<typeof renderApp>['user']) {
  await user.type(await screen.findByLabelText('Username'), 'thandi');
  await user.type(screen.getByLabelText('Password'), 'initial-pass');
  await user.click(screen.getByRole('button', { name: 'Sign In' }));
}

describe('the second sign-in step (SEC-26)', () => {
  it('asks for the code, then lands where the spec says for the role', async () => {
    loginAnswers({ mfaRequired: true, methods: ['totp', 'recovery'] });
    const codes: unknown[] = [];
    server.use(
      http.post('/api/auth/mfa/verify', async ({ request }) => {
        codes.push(await request.json());
        return HttpResponse.json(aSession({ user: { role: 'back_office' } }));
      }),
    );
    const { user } = renderApp('/login');
    await signIn(user);

    const code = await screen.findByLabelText('Verification code');
    expect(screen.queryByRole('button', { name: 'Use a Passkey' })).not.toBeInTheDocument();
    await user.type(code, '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));

    await waitFor(() => expect(currentPath()).toBe('/incoming-feed'));
    expect(codes).toEqual([{ code: '123456' }]);
    await expectToast('Login Successful', 'Welcome back');
  });

  it('shows a refused code and stays on the step', async () => {
    loginAnswers({ mfaRequired: true, methods: ['totp'] });
    server.use(
      http.post('/api/auth/mfa/verify', () =>
        apiError(401, 'UNAUTHENTICATED', 'Invalid verification code'),
      ),
    );
    const { user } = renderApp('/login');
    await signIn(user);

    await user.type(await screen.findByLabelText('Verification code'), '000000');
    await user.click(screen.getByRole('button', { name: 'Verify' }));

    await expectToast('Verification Failed', 'Invalid verification code');
    expect(
      screen.getByText('Verification failed. Check the code and try again.'),
    ).toBeInTheDocument();
    expect(currentPath()).toBe('/login');
  });

  it('opens the forced password change after the second step when the login body carries it', async () => {
    loginAnswers({ mfaRequired: true, methods: ['totp'] });
    server.use(
      http.post('/api/auth/mfa/verify', () =>
        HttpResponse.json(aSession({ requirePasswordChange: true })),
      ),
    );
    const { user } = renderApp('/login');
    await signIn(user);
    await user.type(await screen.findByLabelText('Verification code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));

    expect(await screen.findByRole('dialog', { name: 'Change Password' })).toBeInTheDocument();
    expect(currentPath()).toBe('/login');
  });

  it('asks to set up two-step verification before anything else when the organization requires it', async () => {
    const limited: AuthResponse = aSession({ requireMfaEnrolment: true });
    let isEnrolled = false;
    loginAnswers(limited);
    server.use(
      http.post('/api/auth/mfa/totp/setup', () =>
        HttpResponse.json({
          secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
          otpauthUrl: 'otpauth://totp/Boomgate:thandi?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
        }),
      ),
      http.post('/api/auth/mfa/totp/confirm', () => {
        isEnrolled = true;
        return HttpResponse.json({ recoveryCodes: ['aaaa-bbbb-cccc', 'dddd-eeee-ffff'] });
      }),
      http.get('/api/auth/me', () =>
        isEnrolled
          ? HttpResponse.json(aSession())
          : apiError(401, 'UNAUTHENTICATED', 'Please sign in to continue.'),
      ),
    );
    const { user } = renderApp('/login');
    await signIn(user);

    const dialog = await screen.findByRole('dialog', { name: 'Set Up Two-Step Verification' });
    expect(await within(dialog).findByTestId('totp-secret')).toHaveTextContent(
      'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
    );
    expect(currentPath()).toBe('/login');
    await user.type(within(dialog).getByLabelText('Code from the app'), '654321');
    await user.click(within(dialog).getByRole('button', { name: 'Turn On' }));

    expect(await within(dialog).findByText('aaaa-bbbb-cccc')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'I Have Saved Them' }));
    await waitFor(() => expect(currentPath()).toBe('/'));
  });
});
