import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import type { RecordPlateExitBody, Visit } from '@boomgate/contracts/visits';

import { i18next } from '@/lib/i18n';
import { aSession } from '@/testing/data';
import { signedIn } from '@/testing/handlers';
import { renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';

const SITE = '00000000-0000-4000-8000-0000000000a1';

function aVisit(overrides: Partial<Visit> = {}): Visit {
  return {
    id: crypto.randomUUID(),
    kind: 'vehicle',
    siteId: SITE,
    gateId: null,
    entryLogId: crypto.randomUUID(),
    plateNumber: 'CA123456',
    personName: 'Thabo Nkosi',
    personIdNumber: null,
    company: 'Haulage Co',
    enteredAt: '2026-11-26T08:00:00.000Z',
    enteredBy: { id: null, name: 'Guard One' },
    reEntry: false,
    overstay: false,
    exitedAt: null,
    exitGateId: null,
    exitSource: null,
    exitedBy: null,
    exitTicketNumber: null,
    exitSealNumbers: null,
    exitMismatches: [],
    turnaroundMinutes: null,
    ...overrides,
  };
}

const sites = http.get('/api/sites', () =>
  HttpResponse.json([
    {
      id: SITE,
      name: 'Main site',
      timezone: 'Africa/Johannesburg',
      overstayMinutes: 720,
      isDefault: true,
      isActive: true,
      createdAt: '2026-01-01T00:00:00.000Z',
    },
  ]),
);

describe('On Site', () => {
  it('highlights overstays and records an exit, after which the vehicle leaves the list', async () => {
    const inside = [
      aVisit({ overstay: true }),
      aVisit({ plateNumber: 'GP77XYGP', personName: 'Lerato' }),
    ];
    let exited: string | null = null;
    server.use(
      signedIn(aSession()),
      sites,
      http.get('/api/on-site', () =>
        HttpResponse.json(inside.filter((visit) => visit.entryLogId !== exited)),
      ),
      http.post('/api/entry-logs/:id/exit', ({ params }) => {
        exited = String(params.id);
        const visit = inside.find((v) => v.entryLogId === exited)!;
        return HttpResponse.json({
          ...visit,
          exitedAt: '2026-11-26T09:00:00.000Z',
          exitedBy: { id: null, name: 'x' },
          turnaroundMinutes: 60,
          exitSealNumbers: ['S9'],
          exitMismatches: [
            {
              code: 'seal_mismatch',
              entry: 'S1',
              exit: 'S9',
              message: 'The seal numbers at the exit differ from those recorded at the entry.',
            },
          ],
        });
      }),
    );
    renderApp('/on-site');

    const rows = await screen.findAllByTestId('on-site-row');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveAttribute('data-overstay', 'true');
    expect(within(rows[0]!).getByText('Overstay')).toBeInTheDocument();
    expect(rows[1]).not.toHaveAttribute('data-overstay');

    await userEvent.click(within(rows[0]!).getByRole('button', { name: 'Record Exit' }));
    await waitFor(() => expect(screen.getAllByTestId('on-site-row')).toHaveLength(1));
    expect(screen.getByText('Lerato')).toBeInTheDocument();
    // The server's check of the exit's seals against the entry's, shown after the row is gone.
    const warning = await screen.findByTestId('exit-mismatches');
    expect(warning).toHaveTextContent('The seal numbers at the exit differ');
    expect(warning).toHaveTextContent('S9');
    await userEvent.click(within(warning).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByTestId('exit-mismatches')).not.toBeInTheDocument();
  });
});

describe('Exit by plate (issue 16)', () => {
  it('sends the typed plate, normalised, and shows the server’s answer', async () => {
    const bodies: RecordPlateExitBody[] = [];
    server.use(
      signedIn(aSession()),
      sites,
      http.get('/api/on-site', () => HttpResponse.json([])),
      http.post('/api/visits/plate-exit', async ({ request }) => {
        const body = (await request.json()) as RecordPlateExitBody;
        bodies.push(body);
        if (body.plateNumber !== 'CA123456')
          return HttpResponse.json(
            {
              error: { code: 'NOT_FOUND', message: `Vehicle ${body.plateNumber} is not on site.` },
            },
            { status: 404 },
          );
        return HttpResponse.json(
          aVisit({
            exitedAt: '2026-11-26T09:00:00.000Z',
            exitSource: 'guard',
            exitedBy: { id: null, name: 'Guard One' },
            turnaroundMinutes: 60,
          }),
        );
      }),
    );
    renderApp('/on-site');
    const user = userEvent.setup();

    const plate = await screen.findByLabelText('Number plate');
    const submit = screen.getByRole('button', { name: 'Record Exit' });
    expect(submit).toBeDisabled();
    await user.type(plate, 'zz 99');
    await user.click(submit);
    expect(await screen.findByText('Vehicle ZZ99 is not on site.')).toBeInTheDocument();

    await user.clear(plate);
    await user.type(plate, 'ca 123-456');
    await user.click(submit);
    expect(await screen.findByText(/^Exit recorded: CA/)).toBeInTheDocument();
    expect(bodies).toEqual([{ plateNumber: 'ZZ99' }, { plateNumber: 'CA123456' }]);
    expect(plate).toHaveValue('');
  });

  it('speaks the guard’s language', async () => {
    await i18next.changeLanguage('zu');
    server.use(
      signedIn(aSession()),
      sites,
      http.get('/api/on-site', () => HttpResponse.json([])),
      http.patch('/api/auth/preferences', () => HttpResponse.json({ language: 'zu' })),
    );
    renderApp('/on-site');

    expect(await screen.findByText('Ukuphuma Ngenombolo Yepuleti')).toBeInTheDocument();
    expect(screen.getByLabelText('Inombolo yepuleti')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Skena Ipuleti' })).toBeInTheDocument();
  });
});

describe('Roll-call', () => {
  it('keeps the last list in the browser and shows it when the server cannot be reached', async () => {
    window.localStorage.clear();
    server.use(
      signedIn(aSession()),
      sites,
      http.get('/api/on-site', () => HttpResponse.json([aVisit({ personName: 'Sipho Dube' })])),
    );
    const first = renderApp('/on-site/roll-call');
    expect(await screen.findByText('Sipho Dube')).toBeInTheDocument();
    expect(screen.queryByTestId('roll-call-offline')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Print Roll-Call' })).toBeInTheDocument();
    first.unmount();

    server.use(http.get('/api/on-site', () => HttpResponse.error()));
    renderApp('/on-site/roll-call');
    expect(await screen.findByTestId('roll-call-offline')).toBeInTheDocument();
    expect(screen.getByText('Sipho Dube')).toBeInTheDocument();
    expect(screen.getAllByRole('checkbox', { name: /Accounted for/ })).toHaveLength(1);
  });

  it('changes a site’s time zone with its overstay limit (the clock its alerts keep)', async () => {
    const patches: unknown[] = [];
    server.use(
      signedIn(aSession({ user: { role: 'tenant_admin' } })),
      sites,
      http.get(`/api/sites/${SITE}/gates`, () => HttpResponse.json([])),
      http.patch(`/api/sites/${SITE}`, async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>;
        patches.push(body);
        return HttpResponse.json({
          id: SITE,
          name: 'Main site',
          timezone: 'Africa/Johannesburg',
          overstayMinutes: 720,
          isDefault: true,
          isActive: true,
          createdAt: '2026-01-01T00:00:00.000Z',
          ...body,
        });
      }),
    );
    renderApp('/settings/sites');
    const user = userEvent.setup();

    const zone = await screen.findByLabelText('Time zone', { selector: `#timezone-${SITE}` });
    await user.clear(zone);
    await user.type(zone, 'Africa/Maputo');
    await user.click(within(screen.getByTestId('site-card')).getByRole('button', { name: 'Save' }));

    await waitFor(() =>
      expect(patches).toEqual([{ overstayMinutes: 720, timezone: 'Africa/Maputo' }]),
    );
  });

  it('shows the sites and gates screen in the chosen language', async () => {
    await i18next.changeLanguage('af');
    server.use(
      signedIn(aSession({ user: { role: 'tenant_admin' } })),
      sites,
      http.patch('/api/auth/preferences', () => HttpResponse.json({ language: 'af' })),
      http.get('/api/gates/:id/barrier', ({ params }) =>
        HttpResponse.json({
          gateId: String(params.id),
          online: false,
          connected: false,
          device: null,
          lastSeenAt: null,
          hasToken: false,
        }),
      ),
      http.get(`/api/sites/${SITE}/gates`, () =>
        HttpResponse.json([
          {
            id: crypto.randomUUID(),
            siteId: SITE,
            name: 'Hoofhek',
            lanes: [
              { name: 'Baan 1', direction: 'out', automatic: true },
              { name: 'Baan 2', direction: 'both' },
            ],
            isActive: true,
            createdAt: '2026-01-01T00:00:00.000Z',
          },
        ]),
      ),
    );
    renderApp('/settings/sites');

    expect(await screen.findByRole('heading', { name: 'Terreine en hekke' })).toBeInTheDocument();
    expect(await screen.findByText('Baan 1 (uit, outomaties), Baan 2 (albei)')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Voeg hek by' })).toBeInTheDocument();
    expect(screen.getByText('Verstek')).toBeInTheDocument();
  });
});
