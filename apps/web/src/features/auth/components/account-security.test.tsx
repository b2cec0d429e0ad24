import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import type { MfaStatus } from '@boomgate/contracts/mfa';

import { aSession } from '@/testing/data';
import { signedIn } from '@/testing/handlers';
import { expectToast, renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';

function statusAnswers(initial: MfaStatus) {
  let status = initial;
  const deleted: string[] = [];
  server.use(
    signedIn(aSession({ user: { role: 'back_office' } })),
    http.get('/api/auth/mfa', () => HttpResponse.json(status)),
    http.post('/api/auth/mfa/totp/setup', () =>
      HttpResponse.json({
        secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
        otpauthUrl: 'otpauth://totp/Boomgate:thandi?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
      }),
    ),
    http.post('/api/auth/mfa/totp/confirm', () => {
      status = { ...status, totp: true, recoveryCodesLeft: 10 };
      return HttpResponse.json({ recoveryCodes: ['aaaa-bbbb-cccc'] });
    }),
    http.delete('/api/auth/mfa/passkeys/:id', ({ params }) => {
      deleted.push(String(params.id));
      status = { ...status, passkeys: [] };
      return new HttpResponse(null, { status: 204 });
    }),
  );
  return { deleted };
}

describe('Two-Step Verification (account menu)', () => {
  it('is linked beside the user in the sidebar and sets up an authenticator', async () => {
    statusAnswers({ totp: false, recoveryCodesLeft: 0, passkeys: [], required: true });
    const { user } = renderApp('/dashboard');

    await user.click(
      within(await screen.findByRole('navigation', { name: 'Account' })).getByRole('link', {
        name: 'Two-Step Verification',
      }),
    );
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Two-Step Verification' }),
    ).toBeInTheDocument();
    expect(
      screen.getByText('Your organization requires two-step verification.'),
    ).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Set Up Authenticator' }));
    expect(await screen.findByTestId('totp-secret')).toHaveTextContent(
      'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
    );
    await user.type(screen.getByLabelText('Code from the app'), '123456');
    await user.click(screen.getByRole('button', { name: 'Turn On' }));
    expect(await screen.findByText('aaaa-bbbb-cccc')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'I Have Saved Them' }));
    expect(await screen.findByText('10 recovery codes left.')).toBeInTheDocument();
  });

  it('removes a passkey', async () => {
    const { deleted } = statusAnswers({
      totp: false,
      recoveryCodesLeft: 0,
      required: false,
      passkeys: [
        {
          id: '0b6f7d0e-1f7a-4c36-9d8e-2f1f6b1c1a11',
          name: 'Gate tablet',
          createdAt: '2026-11-20T08:00:00.000Z',
          lastUsedAt: null,
        },
      ],
    });
    const { user } = renderApp('/account/security');

    await user.click(await screen.findByRole('button', { name: 'Remove Gate tablet' }));

    expect(await screen.findByText('No passkeys yet.')).toBeInTheDocument();
    expect(deleted).toEqual(['0b6f7d0e-1f7a-4c36-9d8e-2f1f6b1c1a11']);
  });

  it("shows the server's message when the first code is refused", async () => {
    statusAnswers({ totp: false, recoveryCodesLeft: 0, passkeys: [], required: false });
    server.use(
      http.post('/api/auth/mfa/totp/confirm', () =>
        HttpResponse.json(
          { error: { code: 'INVALID', message: 'That code is not right.' } },
          { status: 400 },
        ),
      ),
    );
    const { user } = renderApp('/account/security');
    await user.click(await screen.findByRole('button', { name: 'Set Up Authenticator' }));
    await user.type(await screen.findByLabelText('Code from the app'), '000000');
    await user.click(screen.getByRole('button', { name: 'Turn On' }));
    await expectToast('Setup Failed', 'That code is not right.');
  });
});
