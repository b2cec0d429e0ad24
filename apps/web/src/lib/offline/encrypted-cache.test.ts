import 'fake-indexeddb/auto';

import { describe, expect, it } from 'vitest';

import type { ApprovedVehicle } from '@boomgate/contracts/approved-vehicles';

import { deviceKey, readEncrypted, wipeCache } from './encrypted-cache';
import { openOfflineDb } from './offline-db';
import { findVehicle, readVehicleCache, saveVehicleCache } from './vehicle-cache';

let dbCount = 0;
const freshDb = () => openOfflineDb(`cache-test-${(dbCount += 1)}`);

const vehicle = (overrides: Partial<ApprovedVehicle> = {}): ApprovedVehicle => ({
  id: '00000000-0000-4000-8000-000000000001',
  plateNumber: 'KP35XKGP',
  driverName: 'Thabo Mokoena',
  driverLicense: '123456789012',
  company: 'Rand Haulage',
  driverPhoto: '/api/images/abc',
  approvedUntil: null,
  isActive: true,
  hasFaceEnrolment: true,
  createdAt: '2026-11-01T08:00:00.000Z',
  pendingApproval: null,
  ...overrides,
});

describe('the encrypted approved-vehicle cache', () => {
  it('stores the list encrypted with a non-extractable key, without photo or licence', async () => {
    const db = await freshDb();
    await saveVehicleCache(db, 'guard-1', [vehicle()]);

    const raw = await db.get('cache', 'approved-vehicles:guard-1');
    const rawText = new TextDecoder().decode(raw!.data);
    expect(rawText).not.toContain('Thabo');
    expect(rawText).not.toContain('KP35XKGP');
    await expect(crypto.subtle.exportKey('raw', await deviceKey(db))).rejects.toThrow();

    const cached = await readVehicleCache(db, 'guard-1');
    expect(cached?.vehicles).toEqual([
      {
        id: vehicle().id,
        plateNumber: 'KP35XKGP',
        driverName: 'Thabo Mokoena',
        company: 'Rand Haulage',
        approvedUntil: null,
        isActive: true,
        pendingApproval: false,
        hasDriverPhoto: true,
      },
    ]);
    expect(JSON.stringify(cached)).not.toContain('123456789012');
    // Another guard on the same device has a list of their own.
    expect(await readVehicleCache(db, 'guard-2')).toBeNull();
  });

  it('reads nothing once wiped (a new key cannot decrypt the old list)', async () => {
    const db = await freshDb();
    await saveVehicleCache(db, 'guard-1', [vehicle()]);
    const record = await db.get('cache', 'approved-vehicles:guard-1');
    await wipeCache(db);
    await db.put('cache', record!, 'approved-vehicles:guard-1');
    expect(await readEncrypted(db, 'approved-vehicles:guard-1')).toBeNull();
  });

  it('finds a typed plate however it is spaced, and treats a lapsed approval as inactive', async () => {
    const db = await freshDb();
    await saveVehicleCache(db, 'guard-1', [
      vehicle(),
      vehicle({
        id: '00000000-0000-4000-8000-000000000002',
        plateNumber: 'CA123456',
        approvedUntil: '2026-11-20',
      }),
    ]);
    const { vehicles } = (await readVehicleCache(db, 'guard-1'))!;
    expect(findVehicle(vehicles, 'kp 35 xk-gp', '2026-11-26')?.driverName).toBe('Thabo Mokoena');
    expect(findVehicle(vehicles, 'CA 123-456', '2026-11-26')?.isActive).toBe(false);
    expect(findVehicle(vehicles, 'CA 123-456', '2026-11-19')?.isActive).toBe(true);
    expect(findVehicle(vehicles, 'ND 1', '2026-11-26')).toBeNull();
  });
});
