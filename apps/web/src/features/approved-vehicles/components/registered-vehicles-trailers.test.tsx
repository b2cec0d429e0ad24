import { screen, within } from '@testing-library/react';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';

import type { Role } from '@boomgate/contracts/roles';

import { aSession } from '@/testing/data';
import { anApprovedVehicle, createGateApi } from '@/testing/gate-api';
import { apiError, signedIn } from '@/testing/handlers';
import { expectToast, renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';

const rig = anApprovedVehicle({
  plateNumber: 'HR12ABGP',
  driverName: 'Thabo Mokoena',
  trailers: [
    { plateNumber: 'TR11CDGP', discNumber: 'MVL1CC42', discExpiry: '2099-03-31' },
    { plateNumber: 'TR22EFGP', discNumber: null, discExpiry: '2020-01-31' },
  ],
});
const rigid = anApprovedVehicle({ plateNumber: 'KP35XKGP', trailers: [] });

function setUp(role: Role = 'back_office') {
  const api = createGateApi({ vehicles: [rig, rigid] });
  server.use(signedIn(aSession({ user: { role } })), ...api.handlers);
  return { ...renderApp('/registered-vehicles'), api };
}

describe("Registered Vehicles: a rig's trailers (issue 21)", () => {
  it('shows each trailer with its plate, disc number and expiry, an expired disc marked', async () => {
    setUp();

    const row = await screen.findByTestId('vehicle-HR12ABGP');
    const trailers = within(row).getAllByRole('listitem');
    expect(trailers).toHaveLength(2);
    expect(trailers[0]).toHaveTextContent('+ TR 11 CD GP · Disc MVL1CC42 · expires Mar 31, 2099');
    expect(trailers[0]).not.toHaveTextContent('Disc expired');
    expect(trailers[1]).toHaveTextContent(
      '+ TR 22 EF GP · No disc recorded · expires Jan 31, 2020 · Disc expired',
    );
    expect(within(screen.getByTestId('vehicle-KP35XKGP')).queryByRole('listitem')).toBeNull();
  });

  it('lets back office remove one trailer and add another, sent as the contract says', async () => {
    const { user, api } = setUp();

    await user.click(await screen.findByRole('button', { name: 'Edit trailers of HR 12 AB GP' }));
    const dialog = await screen.findByRole('dialog', { name: 'Trailers of HR 12 AB GP' });
    expect(within(dialog).getByRole('textbox', { name: 'Trailer 1 Plate' })).toHaveValue(
      'TR11CDGP',
    );
    expect(within(dialog).queryByRole('button', { name: 'Add Trailer' })).toBeNull();

    await user.click(within(dialog).getByRole('button', { name: 'Remove TR 22 EF GP' }));
    await user.click(within(dialog).getByRole('button', { name: 'Add Trailer' }));
    const second = within(dialog).getByRole('group', { name: 'Trailer 2' });
    await user.type(
      within(second).getByRole('textbox', { name: 'Trailer 2 Plate' }),
      'nw 77 xy gp',
    );
    await user.type(within(second).getByLabelText('Disc Number'), 'DISC77');
    await user.type(within(second).getByLabelText('Disc Expiry'), '2028-06-30');
    await user.click(within(dialog).getByRole('button', { name: 'Save Trailers' }));

    await expectToast('Trailers Saved', "HR 12 AB GP's trailers were saved.");
    expect(api.sent('PUT', `/api/approved-vehicles/${rig.id}/trailers`)).toEqual([
      expect.objectContaining({
        body: {
          trailers: [
            { plateNumber: 'TR11CDGP', discNumber: 'MVL1CC42', discExpiry: '2099-03-31' },
            { plateNumber: 'NW77XYGP', discNumber: 'DISC77', discExpiry: '2028-06-30' },
          ],
        },
      }),
    ]);
    expect(await screen.findByText(/TR 11 CD GP/)).toBeInTheDocument();
    expect(screen.getByText(/NW 77 XY GP/)).toBeInTheDocument();
    expect(screen.queryByText(/TR 22 EF GP/)).toBeNull();
  });

  it('names a disc without a plate, and shows the server refusing a watched trailer', async () => {
    const { user, api } = setUp('tenant_admin');
    server.use(
      http.put('/api/approved-vehicles/:id/trailers', () =>
        apiError(
          422,
          'UNPROCESSABLE',
          'WL99GP is on the watchlist and cannot be pre-registered: Stolen trailer',
        ),
      ),
    );

    await user.click(await screen.findByRole('button', { name: 'Edit trailers of KP 35 XK GP' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Add Trailer' }));
    await user.type(within(dialog).getByLabelText('Disc Number'), 'D1');
    await user.click(within(dialog).getByRole('button', { name: 'Save Trailers' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent(
      "Trailer 1 needs the trailer's plate.",
    );
    expect(api.sent('PUT', `/api/approved-vehicles/${rigid.id}/trailers`)).toHaveLength(0);

    await user.type(within(dialog).getByRole('textbox', { name: 'Trailer 1 Plate' }), 'WL99GP');
    await user.click(within(dialog).getByRole('button', { name: 'Save Trailers' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'WL99GP is on the watchlist and cannot be pre-registered: Stolen trailer',
    );
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('offers a security guard no trailer editing', async () => {
    setUp('security_guard');
    await screen.findByTestId('vehicle-HR12ABGP');
    expect(screen.queryByRole('button', { name: /^Edit trailers/ })).toBeNull();
  });
});
