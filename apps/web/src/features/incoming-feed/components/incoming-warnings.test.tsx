import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { type IncomingRequestEntry, incomingRequestStatus } from '@boomgate/contracts/webhooks';

import { i18next } from '@/lib/i18n';
import { aSession } from '@/testing/data';
import { signedIn } from '@/testing/handlers';
import { renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';

import { incomingWarningKind } from './incoming-warnings';

function anEntry(overrides: Partial<IncomingRequestEntry>): IncomingRequestEntry {
  const entry: IncomingRequestEntry = {
    id: crypto.randomUUID(),
    timestamp: '2026-01-01T07:00:00.000Z',
    plateNumber: 'CA123456',
    driverName: 'Sipho',
    driverSurname: 'Nkosi',
    driverIdNumber: '8001015009087',
    driverPhone1: null,
    transportName: null,
    referenceNumber: null,
    weighbridgeTicketId: null,
    extractedDiskData: null,
    status: 'Complete',
    completedAt: '2026-01-01T07:05:00.000Z',
    entryLogId: null,
    trailerPlates: [],
    trailerLicenceDiscIds: [],
    trailers: [],
    warnings: [],
    ruleEvidence: [],
    ...overrides,
  };
  return { ...entry, status: incomingRequestStatus(entry) };
}

const warned = anEntry({
  warnings: [
    {
      code: 'ticket_trailer_unknown',
      message: "The weighbridge ticket names trailer XY99ZZGP, which is not on this vehicle's rig.",
    },
    { code: 'licence_expired', message: 'Driving licence expired: expired on 2025-12-31.' },
  ],
});
const clean = anEntry({ plateNumber: 'ND123456' });

function setUp() {
  server.use(
    signedIn(aSession({ user: { role: 'security_guard' } })),
    http.get('/api/webhook/pending-requests', () =>
      HttpResponse.json<IncomingRequestEntry[]>([warned, clean]),
    ),
  );
  return renderApp('/incoming-feed');
}

describe("Incoming Feed: a completion's stored warnings (issue 21)", () => {
  it('lists them on the row they belong to, the server sentence as it is', async () => {
    setUp();
    const [first, second] = await screen.findAllByTestId('request-row');

    const list = within(first!).getByRole('list', { name: '2 warnings' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      "The weighbridge ticket names trailer XY99ZZGP, which is not on this vehicle's rig.",
      'Driving licence expired: expired on 2025-12-31.',
    ]);
    expect(within(second!).queryByTestId('request-warnings')).toBeNull();
  });

  it("puts each warning's kind in front of it in another language", async () => {
    await i18next.changeLanguage('pt');
    server.use(http.patch('/api/auth/preferences', () => HttpResponse.json({ language: 'pt' })));
    setUp();
    const [first] = await screen.findAllByTestId('request-row');

    const items = within(within(first!).getByRole('list', { name: '2 avisos' })).getAllByRole(
      'listitem',
    );
    expect(items[0]).toHaveTextContent(
      new RegExp(`^${i18next.t('entries:warnings.codes.rig_check')}: The weighbridge ticket`),
    );
    expect(items[1]).toHaveTextContent(
      new RegExp(`^${i18next.t('entries:warnings.codes.document_rule')}: Driving licence expired`),
    );
  });

  it('names the kind by the code: a document rule, a rig check, else none', () => {
    expect(incomingWarningKind('prdp_missing_or_expired')).toBe('document_rule');
    expect(incomingWarningKind('trailer_disc_expired')).toBe('rig_check');
    expect(incomingWarningKind('ticket_trailer_unknown')).toBe('rig_check');
    expect(incomingWarningKind('something_else')).toBeNull();
  });
});
