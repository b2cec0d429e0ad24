import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { i18next } from '@/lib/i18n';
import { aSession } from '@/testing/data';
import { signedIn } from '@/testing/handlers';
import { currentPath, renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';

function setUp(path: string) {
  server.use(signedIn(aSession()));
  return renderApp(path);
}

describe('onboarding chooser', () => {
  it.each([
    ['Company Onboarding', '/onboard/company'],
    ['Self Onboarding', '/onboard/self'],
    ['Security Onboarding', '/onboard/security'],
  ])('leads to %s at %s', async (title, path) => {
    const { user } = setUp('/onboarding');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Onboarding' }),
    ).toBeInTheDocument();

    await user.click(screen.getByRole('link', { name: new RegExp(`^${title}`) }));

    await waitFor(() => expect(currentPath()).toBe(path));
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
  });

  it('company onboarding goes back to /onboarding', async () => {
    const { user } = setUp('/onboard/company');
    await user.click(await screen.findByRole('link', { name: 'Back' }));
    await waitFor(() => expect(currentPath()).toBe('/onboarding'));
  });
});

describe('security onboarding', () => {
  it("shows a QR code of this site's sign-in page", async () => {
    const { user } = setUp('/onboard/security');

    await user.click(await screen.findByRole('button', { name: 'Show QR Code' }));

    const url = `${window.location.origin}/login`;
    const qr = await screen.findByRole('img', { name: `QR code for ${url}` });
    expect(qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
    expect(qr).toHaveAttribute('data-qr-text', url);
    expect(screen.getByText(url)).toBeInTheDocument();
  });

  it('manual onboarding leads to /workflow', async () => {
    const { user } = setUp('/onboard/security');

    await user.click(await screen.findByRole('link', { name: 'Start Manual Onboarding' }));

    await waitFor(() => expect(currentPath()).toBe('/workflow'));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Gate Workflow' }),
    ).toBeInTheDocument();
  });

  it('goes back to /onboarding', async () => {
    const { user } = setUp('/onboard/security');
    await user.click(await screen.findByRole('link', { name: 'Back' }));
    await waitFor(() => expect(currentPath()).toBe('/onboarding'));
  });
});

describe('gate workflow', () => {
  it('covers the auto gate, its results, Real Gate Entry and who to call', async () => {
    setUp('/workflow');

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Gate Workflow' }),
    ).toBeInTheDocument();
    for (const section of [
      '1. The auto gate, for pre-registered vehicles',
      '2. What each result means',
      '3. When to use Real Gate Entry',
      '4. Who to call',
    ]) {
      expect(screen.getByRole('heading', { name: section })).toBeInTheDocument();
    }
    expect(screen.getByText('Entry approved - gate opening')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open Auto Gate' })).toHaveAttribute(
      'href',
      '/auto-gate',
    );
    expect(screen.getByRole('link', { name: 'Open Real Gate Entry' })).toHaveAttribute(
      'href',
      '/real-gate',
    );
  });

  it("speaks the guard's language, keeping the result names the auto gate shows", async () => {
    await i18next.changeLanguage('zu');
    setUp('/workflow');
    server.use(http.patch('/api/auth/preferences', () => HttpResponse.json({ language: 'zu' })));

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Inqubo Yesango' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: '4. Ongamshayela' })).toBeInTheDocument();
    expect(screen.getByText('Isinyathelo 1: Skena inombolo yemoto')).toBeInTheDocument();
    expect(screen.getByText('Entry approved - gate opening')).toBeInTheDocument();
    expect(screen.getByText('Bangenise. Ukungena sekubhaliwe.')).toBeInTheDocument();
  });
});
