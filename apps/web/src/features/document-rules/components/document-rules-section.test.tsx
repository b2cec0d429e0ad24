import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import {
  DEFAULT_RULE_SETTING,
  DOCUMENT_RULE_CODES,
  type DocumentRules,
} from '@boomgate/contracts/document-rules';
import type { Role } from '@boomgate/contracts/roles';

import { aSession, aTenantSettings } from '@/testing/data';
import { apiError, signedIn } from '@/testing/handlers';
import { expectToast, renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';

function setUp(role: Role, { refuse = false } = {}) {
  let current = {
    rules: Object.fromEntries(DOCUMENT_RULE_CODES.map((code) => [code, DEFAULT_RULE_SETTING])),
  } as DocumentRules;
  const patched: unknown[] = [];
  server.use(
    signedIn(aSession({ user: { role } })),
    http.get('/api/settings', () => HttpResponse.json(aTenantSettings())),
    http.get('/api/watchlist', () => HttpResponse.json([])),
    http.get('/api/settings/override-pins', () =>
      HttpResponse.json({ enabled: false, validityMinutes: 15 }),
    ),
    http.get('/api/settings/rules', () => HttpResponse.json(current)),
    http.patch('/api/settings/rules', async ({ request }) => {
      const body = (await request.json()) as { rules: Partial<DocumentRules['rules']> };
      patched.push(body);
      if (refuse) return apiError(403, 'FORBIDDEN', 'You do not have permission to do this.');
      current = { rules: { ...current.rules, ...body.rules } };
      return HttpResponse.json(current);
    }),
  );
  return { ...renderApp('/settings'), patched };
}

describe('Document rules on Settings (issue 21)', () => {
  it('lets an admin set a rule to block, sent as that one rule and shown as saved', async () => {
    const { user, patched } = setUp('tenant_admin');
    const section = await screen.findByTestId('document-rules-section');
    const licence = await within(section).findByLabelText('Driving licence expired');
    expect(licence).toHaveValue('off');
    // Every rule the server knows is listed.
    expect(within(section).getAllByRole('combobox')).toHaveLength(DOCUMENT_RULE_CODES.length);

    await user.selectOptions(licence, 'block');
    expect(patched).toEqual([{ rules: { licence_expired: 'block' } }]);
    await expectToast('Rule saved');
    expect(await within(section).findByLabelText('Driving licence expired')).toHaveValue('block');
  });

  it('shows back office the rules without letting them change one', async () => {
    setUp('back_office');
    const section = await screen.findByTestId('document-rules-section');
    expect(await within(section).findByLabelText('Passport expired')).toBeDisabled();
  });

  it('keeps the rule as it was and says so when the server refuses the change', async () => {
    const { user } = setUp('tenant_admin', { refuse: true });
    const section = await screen.findByTestId('document-rules-section');
    const disc = await within(section).findByLabelText('Licence disc expired');
    await user.selectOptions(disc, 'warn');
    await expectToast('Could not save');
    expect(within(section).getByLabelText('Licence disc expired')).toHaveValue('off');
  });
});
