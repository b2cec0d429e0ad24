import 'fake-indexeddb/auto';

import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';

import { listActions } from '@/lib/offline/action-queue';
import { getOfflineDb } from '@/lib/offline/offline-db';
import { getOfflineStatus, startOfflineSync } from '@/lib/offline/offline-sync';
import { saveVehicleCache } from '@/lib/offline/vehicle-cache';
import { server } from '@/testing/server';

import { OFFLINE_GRANT_NOTE, OFFLINE_REFUSAL_NOTE, OfflineAutoGate } from './offline-auto-gate';

const GUARD_ID = '00000000-0000-4000-8000-0000000000aa';

const approved = {
  id: '00000000-0000-4000-8000-000000000001',
  plateNumber: 'KP35XKGP',
  driverName: 'Thabo Mokoena',
  driverLicense: null,
  company: 'Rand Haulage',
  driverPhoto: null,
  approvedUntil: null,
  isActive: true,
  hasFaceEnrolment: false,
  createdAt: '2026-11-01T08:00:00.000Z',
  pendingApproval: null,
};

let stop: (() => void) | null = null;

afterEach(async () => {
  stop?.();
  stop = null;
  const db = await getOfflineDb();
  await db?.clear('actions');
});

/** The server cannot be reached: the health probe gets no answer. */
async function goOffline() {
  server.use(http.get('/api/health', () => HttpResponse.error()));
  stop = startOfflineSync(GUARD_ID);
  await waitFor(() => expect(getOfflineStatus().online).toBe(false));
  const db = await getOfflineDb();
  await saveVehicleCache(db!, GUARD_ID, [approved]);
}

describe('Auto Gate offline', () => {
  it('grants a cached approved vehicle into the queue, flagged as decided offline', async () => {
    await goOffline();
    const user = userEvent.setup();
    render(<OfflineAutoGate />);

    await user.type(screen.getByLabelText('Plate number'), 'kp 35 xk gp');
    await user.click(screen.getByRole('button', { name: 'Check Plate' }));
    expect(await screen.findByText('Thabo Mokoena')).toBeInTheDocument();
    expect(screen.getByText('Pending verification')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Grant Entry' }));

    expect(await screen.findByText('Entry approved - gate opening')).toBeInTheDocument();
    const actions = await listActions((await getOfflineDb())!);
    expect(actions).toHaveLength(1);
    expect(actions[0]).toMatchObject({
      userId: GUARD_ID,
      path: '/api/auto-gate/grant-entry',
      state: 'pending',
      body: {
        plateNumber: 'KP35XKGP',
        vehicleApproved: true,
        faceVerified: false,
        entryGranted: true,
        warnings: [OFFLINE_GRANT_NOTE],
      },
    });
    await waitFor(() => expect(getOfflineStatus().pending).toBe(1));
  });

  it('refuses and queues the refusal of a plate the cached list does not hold', async () => {
    await goOffline();
    const user = userEvent.setup();
    render(<OfflineAutoGate />);

    await user.type(screen.getByLabelText('Plate number'), 'CA 999-999');
    await user.click(screen.getByRole('button', { name: 'Check Plate' }));

    expect(await screen.findByText('Vehicle not pre-registered')).toBeInTheDocument();
    const [refusal] = await listActions((await getOfflineDb())!);
    expect(refusal?.body).toMatchObject({
      plateNumber: 'CA999999',
      entryGranted: false,
      refusalReason: 'not_registered',
      warnings: [OFFLINE_REFUSAL_NOTE],
    });
  });
});
