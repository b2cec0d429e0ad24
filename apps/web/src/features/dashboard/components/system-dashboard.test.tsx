import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import type { Dashboard } from '@boomgate/contracts/entry-logs';

import { aReportSummary, aSession } from '@/testing/data';
import { aDashboard, anEntryLog, createGateApi } from '@/testing/gate-api';
import { signedIn } from '@/testing/handlers';
import { renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';

function setUp(dashboard: Dashboard, path = '/dashboard') {
  server.use(signedIn(aSession()), ...createGateApi({ dashboard }).handlers);
  return renderApp(path);
}

const card = (title: string) =>
  screen.getByTestId(`stat-${title.toLowerCase().replace(/\s+/g, '-')}`);

describe('System Dashboard', () => {
  it('shows the figures the server computed', async () => {
    setUp(
      aDashboard({
        totalEntries: 40,
        todayEntries: 6,
        approvedEntries: 32,
        grantedEntries: 30,
        faceVerifiedEntries: 25,
        approvalRate: 75,
        verificationRate: 62.5,
        registeredVehicles: 12,
        activeUsers: 4,
      }),
    );

    expect(
      await screen.findByRole('heading', { level: 1, name: 'System Dashboard' }),
    ).toBeInTheDocument();
    expect(await screen.findByTestId('stat-total-entries')).toHaveTextContent('40');
    expect(card('Total Entries')).toHaveTextContent('6 today');
    expect(card('Approval Rate')).toHaveTextContent('75%');
    expect(card('Approval Rate')).toHaveTextContent('30 of 40 attempts granted');
    expect(card('Verification Rate')).toHaveTextContent('62.5%');
    expect(card('Registered Vehicles')).toHaveTextContent('12');
    expect(card('Registered Vehicles')).toHaveTextContent('Pre-approved for entry');
    expect(card('System Users')).toHaveTextContent('4');
    expect(card('Processing Status')).toHaveTextContent('OPERATIONAL');
    expect(card('Performance')).toHaveTextContent('98%');
  });

  it('lists the recent entries with plate fallbacks, category, approval badge and face tick', async () => {
    setUp(
      aDashboard({
        totalEntries: 3,
        recentEntries: [
          anEntryLog({
            timestamp: '2026-11-22T08:05:09.000Z',
            plateNumber: 'KP35XKGP',
            category: 'contracted',
            vehicleApproved: true,
            faceVerified: true,
          }),
          anEntryLog({
            plateNumber: '',
            extractedPlate: 'CA 123 456',
            category: 'visitor',
            vehicleApproved: false,
            faceVerified: false,
          }),
          anEntryLog({ plateNumber: '', extractedPlate: null }),
        ],
      }),
    );

    const table = await screen.findByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Timestamp', 'Plate Number', 'Category', 'Status', 'Face Verified']);
    const rows = screen.getAllByTestId('recent-entry');
    expect(rows).toHaveLength(3);
    expect(rows[0]).toHaveTextContent('KP35XKGP');
    expect(rows[0]).toHaveTextContent('contracted');
    expect(within(rows[0]!).getByText('APPROVED')).toBeInTheDocument();
    expect(within(rows[0]!).getByRole('img', { name: 'Face verified' })).toBeInTheDocument();
    expect(rows[0]).toHaveTextContent(/Nov 22, 2026 \d{2}:05:09/);
    expect(rows[1]).toHaveTextContent('CA 123 456');
    expect(rows[1]).toHaveTextContent('visitor');
    expect(within(rows[1]!).getByText('PENDING')).toBeInTheDocument();
    expect(within(rows[1]!).getByRole('img', { name: 'Not face verified' })).toBeInTheDocument();
    expect(rows[2]).toHaveTextContent('N/A');
    for (const row of rows) expect(within(row).queryByText('Refused')).not.toBeInTheDocument();
  });

  it("marks a refused attempt 'Refused' beside its badge, and an expired document in red", async () => {
    setUp(
      aDashboard({
        totalEntries: 2,
        recentEntries: [
          anEntryLog({
            plateNumber: 'CA999999',
            vehicleApproved: false,
            entryGranted: false,
            refusalReason: 'not_registered',
          }),
          anEntryLog({
            plateNumber: 'KP35XKGP',
            vehicleApproved: true,
            entryGranted: true,
            warnings: [
              {
                code: 'document_expired',
                severity: 'critical',
                message: 'Licence disc expired on 2020-01-31.',
                fields: ['licenceDisc.dateOfExpiry'],
              },
            ],
          }),
        ],
      }),
    );

    const rows = await screen.findAllByTestId('recent-entry');
    expect(within(rows[0]!).getByText('PENDING')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('Refused')).toHaveAttribute(
      'title',
      'Vehicle not pre-registered',
    );
    expect(within(rows[1]!).getByText('APPROVED')).toBeInTheDocument();
    expect(within(rows[1]!).queryByText('Refused')).not.toBeInTheDocument();
    expect(within(rows[1]!).getByTestId('expired-document-mark')).toHaveClass('text-destructive');
  });

  it("shows a rig's trailers and how many trailer discs were checked (issue 21)", async () => {
    setUp(
      aDashboard({
        totalEntries: 2,
        recentEntries: [
          anEntryLog({
            plateNumber: 'HORSE1GP',
            trailerPlates: ['TR1GP', 'TR2GP'],
            trailerLicenceDiscIds: [crypto.randomUUID(), crypto.randomUUID()],
          }),
          anEntryLog({ plateNumber: 'SOLO1GP' }),
        ],
      }),
    );

    const rows = await screen.findAllByTestId('recent-entry');
    expect(within(rows[0]!).getByTestId('recent-entry-trailers')).toHaveTextContent(
      '+ TR1GP, TR2GP (2 discs)',
    );
    expect(within(rows[1]!).queryByTestId('recent-entry-trailers')).toBeNull();
  });

  it('shows at most the latest 10 entries', async () => {
    setUp(
      aDashboard({
        totalEntries: 12,
        recentEntries: Array.from({ length: 12 }, () => anEntryLog()),
      }),
    );

    await screen.findByRole('table');
    expect(screen.getAllByTestId('recent-entry')).toHaveLength(10);
  });

  it("says 'No entry logs available' and N/A performance without entries, also at /", async () => {
    setUp(aDashboard(), '/');

    expect(await screen.findByText('No entry logs available')).toBeInTheDocument();
    expect(card('Performance')).toHaveTextContent('N/A');
    expect(card('Approval Rate')).toHaveTextContent('0%');
  });

  it('adds today’s arrivals for those who may see reports, after the cards', async () => {
    const today = new Date().toLocaleDateString('en-CA');
    let asked = '';
    server.use(
      signedIn(aSession({ user: { role: 'back_office' } })),
      ...createGateApi({ dashboard: aDashboard({ totalEntries: 5 }) }).handlers,
      http.get('/api/reports/summary', ({ request }) => {
        asked = new URL(request.url).search;
        return HttpResponse.json(
          aReportSummary(today, today, {
            totals: {
              entries: 5,
              granted: 4,
              refused: 1,
              arrivals: 4,
              departures: 1,
              approved: 4,
              faceVerified: 3,
              corrected: 0,
            },
            onSite: Array.from({ length: 24 }, (_, hour) => ({ hour, count: 3 })),
          }),
        );
      }),
    );
    renderApp('/dashboard');
    expect(await screen.findByTestId('arrivals-today')).toHaveTextContent(
      'Entries: 5 · On site: 3',
    );
    expect(asked).toBe(`?from=${today}&to=${today}`);
  });

  it('shows guards no arrivals chart (reports are not theirs)', async () => {
    let asked = 0;
    server.use(
      signedIn(aSession({ user: { role: 'security_guard' } })),
      ...createGateApi({ dashboard: aDashboard({ totalEntries: 5 }) }).handlers,
      http.get('/api/reports/summary', () => {
        asked += 1;
        return HttpResponse.json({});
      }),
    );
    renderApp('/dashboard');
    expect(await screen.findByTestId('stat-total-entries')).toHaveTextContent('5');
    expect(screen.queryByTestId('arrivals-today')).toBeNull();
    expect(asked).toBe(0);
  });
});
