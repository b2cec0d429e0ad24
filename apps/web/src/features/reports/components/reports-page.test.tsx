import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { EXPORT_ROW_COUNT_HEADER } from '@boomgate/contracts/exports';

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
    await userEvent.click(await screen.findByRole('button', { name: 'Download' }));

    expect(await screen.findByText(/Done: 2 of 2 rows/)).toBeInTheDocument();
    expect(asked[0]?.get('from')).toBe('2026-11-20');
    expect(asked[0]?.get('to')).toBe('2026-11-21');
    expect(asked[0]?.get('format')).toBe('csv');
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]?.fileName).toBe('entries-2026-11-20-to-2026-11-21.csv');
    expect(await saved[0]?.blob.text()).toContain('CA100002');
  });

  it('downloads the refusals, watchlist hits or weighbridge tickets when chosen', async () => {
    const asked: string[] = [];
    server.use(
      signedIn(aSession({ user: { role: 'tenant_admin' } })),
      http.get('/api/exports/:kind', ({ request }) => {
        asked.push(new URL(request.url).pathname);
        return new HttpResponse(CSV, {
          headers: { 'content-type': 'text/csv; charset=utf-8', [EXPORT_ROW_COUNT_HEADER]: '2' },
        });
      }),
    );
    const saved = captureDownloads();
    renderApp('/reports');

    for (const [label, path] of [
      ['Refusals', 'refusals'],
      ['Watchlist hits', 'watchlist-hits'],
      ['Weighbridge tickets', 'weighbridge-tickets'],
    ] as const) {
      await userEvent.click(await screen.findByLabelText('What'));
      await userEvent.click(await screen.findByRole('option', { name: label }));
      await userEvent.click(screen.getByRole('button', { name: 'Download' }));
      await waitFor(() => expect(asked.at(-1)).toBe(`/api/exports/${path}`));
      await waitFor(() => expect(saved.at(-1)?.fileName).toMatch(new RegExp(`^${path}-.*\\.csv$`)));
    }
    expect(asked).toHaveLength(3);
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
              distribution: [
                { fromMinutes: 0, toMinutes: 30, visits: 0 },
                { fromMinutes: 30, toMinutes: 60, visits: 1 },
                { fromMinutes: 480, toMinutes: null, visits: 1 },
              ],
              byTransporter: [
                { transporter: 'Kumba', visits: 2, medianMinutes: 60, p90Minutes: 84 },
              ],
            },
            busiestGates: [{ gateId: null, gateName: 'Main gate', entries: 4 }],
            weighbridge: {
              loads: 3,
              weighed: 2,
              netMassKg: 50_000,
              overloadChecked: 2,
              overloaded: 1,
              overloadRate: 0.5,
              byTransporter: [
                {
                  transporter: 'Kumba',
                  loads: 2,
                  weighed: 2,
                  netMassKg: 50_000,
                  overloadChecked: 2,
                  overloaded: 1,
                  overloadRate: 0.5,
                },
                {
                  transporter: '',
                  loads: 1,
                  weighed: 0,
                  netMassKg: 0,
                  overloadChecked: 0,
                  overloaded: 0,
                  overloadRate: null,
                },
              ],
            },
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
    const bands = screen.getByTestId('report-turnaround-bands').querySelectorAll('tbody tr');
    expect([...bands].map((row) => row.textContent)).toEqual([
      '0–30 min0',
      '30–60 min1',
      '480 min and over1',
    ]);
    expect(screen.getByTestId('report-weighbridge-summary')).toHaveTextContent(
      '3 loads, 50 t net; 1 of 2 checked loads over the GVM.',
    );
    const [kumba, unnamed] = screen.getByTestId('report-weighbridge').querySelectorAll('tbody tr');
    expect(kumba).toHaveTextContent(/Kumba\s*2\s*50\s*2\s*1\s*50%/);
    expect(unnamed).toHaveTextContent(/Not recorded\s*1\s*0\s*0\s*0\s*N\/A/);

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

describe('Reports: scheduled e-mail', () => {
  it('lets an administrator e-mail a weekly PDF report to the addresses given', async () => {
    const sent: unknown[] = [];
    server.use(
      signedIn(aSession({ user: { role: 'tenant_admin' } })),
      http.patch('/api/reports/schedule', async ({ request }) => {
        sent.push(await request.json());
        return HttpResponse.json({
          frequency: 'weekly',
          format: 'pdf',
          recipients: ['manager@example.com', 'ops@example.com'],
          siteId: null,
          nextSendAt: '2026-03-16T04:00:00.000Z',
        });
      }),
    );
    renderApp('/reports');

    await userEvent.click(await screen.findByLabelText('Send'));
    await userEvent.click(await screen.findByRole('option', { name: 'Weekly' }));
    await userEvent.click(screen.getByLabelText('Attachment'));
    await userEvent.click(await screen.findByRole('option', { name: 'PDF' }));
    await userEvent.type(
      screen.getByLabelText('Recipients'),
      'manager@example.com, ops@example.com',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Save schedule' }));

    await waitFor(() =>
      expect(sent).toEqual([
        {
          frequency: 'weekly',
          format: 'pdf',
          siteId: null,
          recipients: ['manager@example.com', 'ops@example.com'],
        },
      ]),
    );
    expect(await screen.findByTestId('schedule-next')).toHaveTextContent('Next e-mail:');
  });

  it('says what is wrong with an address without asking the server', async () => {
    let calls = 0;
    server.use(
      signedIn(aSession({ user: { role: 'tenant_admin' } })),
      http.patch('/api/reports/schedule', () => {
        calls += 1;
        return HttpResponse.json({});
      }),
    );
    renderApp('/reports');
    await userEvent.click(await screen.findByLabelText('Send'));
    await userEvent.click(await screen.findByRole('option', { name: 'Daily' }));
    await userEvent.type(screen.getByLabelText('Recipients'), 'not-an-address');
    await userEvent.click(screen.getByRole('button', { name: 'Save schedule' }));
    expect(await screen.findByText('Enter a valid e-mail address')).toBeInTheDocument();
    expect(calls).toBe(0);
  });

  it('is not offered to back office', async () => {
    server.use(signedIn(aSession({ user: { role: 'back_office' } })));
    renderApp('/reports');
    expect(await screen.findByRole('heading', { name: 'Reports' })).toBeInTheDocument();
    expect(screen.queryByText('Scheduled report e-mail')).not.toBeInTheDocument();
  });
});
