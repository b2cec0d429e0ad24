import type { ApprovedVehicle } from '@boomgate/contracts/approved-vehicles';

import { normalisePlate } from '@/lib/plates';

import { readEncrypted, writeEncrypted } from './encrypted-cache';
import type { OfflineDb } from './offline-db';

/**
 * What the device keeps of an approved vehicle to decide offline: no photo, no licence number
 * (issue 18: personal data stays on the server unless the tenant allows it).
 */
export type OfflineVehicle = {
  id: string;
  plateNumber: string;
  driverName: string;
  company: string | null;
  approvedUntil: string | null;
  isActive: boolean;
  pendingApproval: boolean;
  hasDriverPhoto: boolean;
};

const cacheName = (userId: string) => `approved-vehicles:${userId}`;

/** Plates compare without spaces, dashes or case (the register's plates are stored normalised). */
export const plateKey = (plate: string) => normalisePlate(plate);

export function toOfflineVehicle(vehicle: ApprovedVehicle): OfflineVehicle {
  return {
    id: vehicle.id,
    plateNumber: vehicle.plateNumber,
    driverName: vehicle.driverName,
    company: vehicle.company,
    approvedUntil: vehicle.approvedUntil,
    isActive: vehicle.isActive,
    pendingApproval: vehicle.pendingApproval !== null,
    hasDriverPhoto: vehicle.driverPhoto !== null,
  };
}

export async function saveVehicleCache(
  db: OfflineDb,
  userId: string,
  vehicles: readonly ApprovedVehicle[],
): Promise<void> {
  await writeEncrypted(db, cacheName(userId), vehicles.map(toOfflineVehicle));
}

export async function readVehicleCache(
  db: OfflineDb,
  userId: string,
): Promise<{ vehicles: OfflineVehicle[]; savedAt: string } | null> {
  const cached = await readEncrypted<OfflineVehicle[]>(db, cacheName(userId));
  return cached ? { vehicles: cached.value, savedAt: cached.savedAt } : null;
}

/**
 * The cached vehicle for a typed plate. An approval date that has passed since the list was saved
 * makes it inactive here too (`today` as YYYY-MM-DD on the device's clock).
 */
export function findVehicle(
  vehicles: readonly OfflineVehicle[],
  plate: string,
  today: string,
): OfflineVehicle | null {
  const key = plateKey(plate);
  const vehicle = vehicles.find((candidate) => plateKey(candidate.plateNumber) === key);
  if (!vehicle) return null;
  const expired = vehicle.approvedUntil !== null && vehicle.approvedUntil < today;
  return expired ? { ...vehicle, isActive: false } : vehicle;
}

/** What the device keeps of a visit to record its exit offline (issue 18). */
export type OfflineVisit = {
  id: string;
  entryLogId: string | null;
  plateNumber: string | null;
  enteredAt: string;
};

const onSiteName = (userId: string) => `on-site:${userId}`;

export async function saveOnSiteCache(
  db: OfflineDb,
  userId: string,
  visits: readonly OfflineVisit[],
): Promise<void> {
  await writeEncrypted(
    db,
    onSiteName(userId),
    visits.map(({ id, entryLogId, plateNumber, enteredAt }) => ({
      id,
      entryLogId,
      plateNumber,
      enteredAt,
    })),
  );
}

export async function readOnSiteCache(db: OfflineDb, userId: string): Promise<OfflineVisit[]> {
  return (await readEncrypted<OfflineVisit[]>(db, onSiteName(userId)))?.value ?? [];
}
