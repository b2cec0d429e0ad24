import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { EXPORT_ROW_COUNT_HEADER } from '@boomgate/contracts/exports';

import { i18next } from '@/lib/i18n';
import { aReportSummary, aSession } from '@/testing/data';
import { captureDownloads, restoreDownloadsAfterEach } from '@/testing/downloads';
import { signedIn } from '@/testing/handlers';
import { renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';

const CSV =
  '\uFEFFTimestamp,Plate\r\n2026-11-20T08:00:00+02:00,CA100001\r\n2026-11-21T09:00:00+02:00,CA100002\r\n';

describe('Reports: entry export', () => {
  restoreDownloadsAfterEach();

  it('downloads the chosen days as CSV and says how many entries came', async () => {
    const asked: URLSearchParams[] = [];
    server.use(
      signedIn(aSession({ user: { role: 'back_office' } })),
      http.get('/api/exports/entry-logs', ({ request }) => {
        asked.push(new URL(request.url).searchParams);
        return new HttpResponse(CSV, {
          headers: { 'content-type': 'text/csv; charset=utf-8', [EXPORT_ROW_COUNT_HEADER]: '2' },
        });
      }),
    );
    const saved = captureDownloads();
    renderApp('/reports');

    const from = await screen.findByLabelText('From');
    await userEvent.clear(from);
    await userEvent.type(from, '2026-11-20');
    const to = screen.getByLabelText('To');
    await userEvent.clear(to);
    await userEvent.type(to, '2026-11-21');
    await userEvent.click(screen.getByRole('button', { name: 'Download' }));

    expect(await screen.findByText(/Done: 2 of 2 entries/)).toBeInTheDocument();
    expect(asked[0]?.get('from')).toBe('2026-11-20');
    expect(asked[0]?.get('to')).toBe('2026-11-21');
    expect(asked[0]?.get('format')).toBe('csv');
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]?.fileName).toBe('entries-2026-11-20-to-2026-11-21.csv');
    expect(await saved[0]?.blob.text()).toContain('CA100002');
  });

  it('says how the export went in the chosen language', async () => {
    await i18next.changeLanguage('af');
    server.use(
      signedIn(aSession({ user: { role: 'back_office' } })),
      http.get(
        '/api/exports/entry-logs',
        () =>
          new HttpResponse(CSV, {
            headers: { 'content-type': 'text/csv; charset=utf-8', [EXPORT_ROW_COUNT_HEADER]: '2' },
          }),
      ),
      http.patch('/api/auth/preferences', () => HttpResponse.json({ language: 'af' })),
    );
    captureDownloads();
    renderApp('/reports');

    expect(await screen.findByRole('form', { name: 'Voer toegange uit' })).toBeVisible();
    await userEvent.click(await screen.findByRole('button', { name: 'Laai af' }));
    expect(await screen.findByText(/Klaar: 2 van 2 toegange/)).toBeInTheDocument();
  });

  it('refuses a range that ends before it starts, without asking the server', async () => {
    let calls = 0;
    server.use(
      signedIn(aSession()),
      http.get('/api/exports/entry-logs', () => {
        calls += 1;
        return new HttpResponse('', { status: 500 });
      }),
    );
    renderApp('/reports');
    const from = await screen.findByLabelText('From');
    await userEvent.clear(from);
    await userEvent.type(from, '2026-11-21');
    const to = screen.getByLabelText('To');
    await userEvent.clear(to);
    await userEvent.type(to, '2026-11-20');
    await userEvent.click(screen.getByRole('button', { name: 'Download' }));

    expect(
      await screen.findByText('The range must start on or before its last day.'),
    ).toBeInTheDocument();
    // The report asks nothing for a range that cannot be, and says why.
    expect(
      screen.getByText('Choose a range of at most 366 days, the first day on or before the last.'),
    ).toBeInTheDocument();
    expect(calls).toBe(0);
  });

  it('is not shown to guards', async () => {
    server.use(signedIn(aSession({ user: { role: 'security_guard' } })));
    renderApp('/reports');
    expect(
      await screen.findByText('Reports are for back office and administrators.'),
    ).toBeInTheDocument();
  });
});

describe('Reports: figures', () => {
  it('shows the server’s figures with their data tables and asks again when the range changes', async () => {
    const asked: URLSearchParams[] = [];
    server.use(
      signedIn(aSession({ user: { role: 'tenant_admin' } })),
      http.get('/api/reports/summary', ({ request }) => {
        const params = new URL(request.url).searchParams;
        asked.push(params);
        const from = params.get('from') ?? '';
        const to = params.get('to') ?? '';
        return HttpResponse.json(
          aReportSummary(from, to, {
            totals: {
              entries: 4,
              granted: 2,
              refused: 2,
              arrivals: 3,
              departures: 3,
              approved: 2,
              faceVerified: 1,
              corrected: 1,
            },
            rates: { approval: 0.5, faceVerification: 0.25, manualCorrection: 0.25 },
            refusalReasons: [{ reason: 'not_approved', count: 2 }],
            turnaround: {
              visits: 2,
              medianMinutes: 60,
              p90Minutes: 84,
              byTransporter: [
                { transporter: 'Kumba', visits: 2, medianMinutes: 60, p90Minutes: 84 },
              ],
            },
            busiestGates: [{ gateId: null, gateName: 'Main gate', entries: 4 }],
          }),
        );
      }),
    );
    renderApp('/reports');

    expect(await screen.findByTestId('report-approval')).toHaveTextContent('50%');
    expect(screen.getByTestId('report-median')).toHaveTextContent('60 min');
    expect(screen.getByTestId('report-refusals')).toHaveTextContent('not_approved');
    expect(screen.getByTestId('report-turnaround')).toHaveTextContent('Kumba');
    expect(screen.getByTestId('report-gates')).toHaveTextContent('Main gate');

    const from = screen.getByLabelText('From');
    await userEvent.clear(from);
    await userEvent.type(from, '2026-11-01');
    const to = screen.getByLabelText('To');
    await userEvent.clear(to);
    await userEvent.type(to, '2026-11-03');
    await waitFor(() => expect(asked.at(-1)?.toString()).toBe('from=2026-11-01&to=2026-11-03'));
    await waitFor(() =>
      expect(screen.getByTestId('report-days').querySelectorAll('tbody tr')).toHaveLength(3),
    );
  });
});
