import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import type { Role } from '@boomgate/contracts/roles';

import { aSession } from '@/testing/data';
import { anApprovedVehicle, createGateApi } from '@/testing/gate-api';
import { apiError, signedIn } from '@/testing/handlers';
import { expectToast, renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';

const withPhoto = anApprovedVehicle({
  plateNumber: 'KP35XKGP',
  driverName: 'Sipho Nkosi',
  company: 'Kumba Haulage',
  approvedUntil: '2027-02-22',
});
const expired = anApprovedVehicle({
  plateNumber: 'CA123456',
  driverName: 'Lerato Khumalo',
  company: null,
  driverPhoto: null,
  approvedUntil: '2025-01-31',
  isActive: false,
});

function setUp(vehicles = [withPhoto, expired], role: Role = 'tenant_admin') {
  const api = createGateApi({ vehicles });
  server.use(signedIn(aSession({ user: { role } })), ...api.handlers);
  const view = renderApp('/registered-vehicles');
  return { ...view, api };
}

describe('Registered Vehicles', () => {
  it('lists the vehicles in a scroll area of at most 600px', async () => {
    setUp();

    expect(await screen.findByText('2 registered vehicle(s)')).toBeInTheDocument();
    expect(screen.getByTestId('vehicles-scroll-area')).toHaveClass('max-h-[600px]');

    const first = screen.getByTestId('vehicle-KP35XKGP');
    expect(within(first).getByText('KP 35 XK GP')).toBeInTheDocument();
    expect(within(first).getByText('Active')).toBeInTheDocument();
    expect(within(first).getByText(/Sipho Nkosi/)).toBeInTheDocument();
    expect(within(first).getByText(/Kumba Haulage/)).toBeInTheDocument();
    expect(within(first).getByText('Approved until Feb 22, 2027')).toBeInTheDocument();
    expect(within(first).getByRole('img', { name: 'Driver Sipho Nkosi' })).toHaveAttribute(
      'src',
      withPhoto.driverPhoto,
    );

    const second = screen.getByTestId('vehicle-CA123456');
    expect(within(second).getByText('CA 123 456')).toBeInTheDocument();
    expect(within(second).getByText('Inactive')).toBeInTheDocument();
    expect(within(second).queryByRole('img')).not.toBeInTheDocument();
  });

  it('deletes a vehicle only after confirmation', async () => {
    const { user, api } = setUp();
    await screen.findByText('2 registered vehicle(s)');

    await user.click(screen.getByRole('button', { name: 'Delete KP 35 XK GP' }));
    let confirm = await screen.findByRole('alertdialog', { name: 'Delete Vehicle?' });
    expect(confirm).toHaveTextContent('KP 35 XK GP (Sipho Nkosi) will no longer be approved');
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(api.sent('DELETE', `/api/approved-vehicles/${withPhoto.id}`)).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Delete KP 35 XK GP' }));
    confirm = await screen.findByRole('alertdialog', { name: 'Delete Vehicle?' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));

    await expectToast('Vehicle Deleted', 'KP 35 XK GP is no longer registered.');
    expect(await screen.findByText('1 registered vehicle(s)')).toBeInTheDocument();
    expect(screen.queryByTestId('vehicle-KP35XKGP')).not.toBeInTheDocument();
    expect(api.sent('DELETE', `/api/approved-vehicles/${withPhoto.id}`)).toHaveLength(1);
  });

  it('reports a failed delete', async () => {
    const { user } = setUp();
    server.use(
      http.delete('/api/approved-vehicles/:id', () =>
        apiError(403, 'FORBIDDEN', 'You may not delete vehicles.'),
      ),
    );
    await screen.findByText('2 registered vehicle(s)');

    await user.click(screen.getByRole('button', { name: 'Delete CA 123 456' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }),
    );

    await expectToast('Delete Failed', 'You may not delete vehicles.');
    await waitFor(() => expect(screen.getByTestId('vehicle-CA123456')).toBeInTheDocument());
  });

  it('says so when no vehicle is registered, with a way to register one', async () => {
    setUp([]);

    expect(await screen.findByText('No Registered Vehicles')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Register Vehicle' })).toHaveAttribute(
      'href',
      '/pre-arrival',
    );
  });

  describe('separation of duties', () => {
    const proposed = anApprovedVehicle({
      plateNumber: 'ND123456',
      driverName: 'Thabo Mokoena',
      isActive: false,
      pendingApproval: 'registration',
    });

    it('shows a guard\'s proposal as "Pending approval", without confirm buttons for a guard', async () => {
      setUp([proposed, withPhoto], 'security_guard');

      const row = await screen.findByTestId('vehicle-ND123456');

      expect(within(row).getByText('Pending approval')).toBeInTheDocument();
      expect(within(row).queryByText('Active')).not.toBeInTheDocument();
      expect(
        within(row).getByText('Registered by a security guard: not approved until confirmed'),
      ).toBeInTheDocument();
      expect(within(row).queryByRole('button', { name: /^Confirm/ })).not.toBeInTheDocument();
    });

    it('lets back office confirm a proposal', async () => {
      const decided: string[] = [];
      const { user } = setUp([proposed], 'back_office');
      server.use(
        http.post('/api/approved-vehicles/:id/:decision', ({ params }) => {
          decided.push(`${String(params.id)} ${String(params.decision)}`);
          return HttpResponse.json({
            outcome: 'approved',
            vehicle: { ...proposed, isActive: true, pendingApproval: null },
          });
        }),
      );

      await user.click(await screen.findByRole('button', { name: 'Confirm ND 123 456' }));

      await expectToast('Change Confirmed', 'ND 123 456 is approved for entry.');
      expect(decided).toEqual([`${proposed.id} confirm`]);
    });

    it('tells a guard that a delete waits for approval (202)', async () => {
      const { user } = setUp([withPhoto], 'security_guard');
      server.use(
        http.delete('/api/approved-vehicles/:id', () =>
          HttpResponse.json({ ...withPhoto, pendingApproval: 'deletion' }, { status: 202 }),
        ),
      );
      await screen.findByText('1 registered vehicle(s)');

      await user.click(screen.getByRole('button', { name: 'Delete KP 35 XK GP' }));
      await user.click(
        within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }),
      );

      await expectToast(
        'Deletion Proposed',
        'KP 35 XK GP stays registered until back office or an admin confirms.',
      );
    });
  });
});
