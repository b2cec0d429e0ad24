import { eq } from 'drizzle-orm';

import { randomBytes } from 'node:crypto';

import { ROLE_LABELS, ROLES } from '@boomgate/contracts/roles';

import { loadEnv } from '@/config/env';
import { approvedVehicles } from '@/modules/approved-vehicles/approved-vehicles.table';
import { entryLogs } from '@/modules/entry-logs/entry-logs.table';
import { addMonths, siteDay } from '@/platform/calendar';
import { newId } from '@/platform/ids';

import { openOperatorDatabase } from './operator-database';
import { ensureTenant, upsertUser } from './provision';

const DEMO_TENANT = 'Demo Mine';

/**
 * A demo organization with one user per role, a few approved vehicles and some gate entries.
 * Passwords are new on every run and printed once; running it again resets them and adds no
 * duplicate vehicles.
 */
const DEMO_VEHICLES = [
  { plateNumber: 'KP35XKGP', driverName: 'Sipho Nkosi', company: 'Kumba Haulage' },
  { plateNumber: 'BCD123MP', driverName: 'Thandi Mokoena', company: 'Highveld Transport' },
  { plateNumber: 'CA419547', driverName: 'Johan van Wyk', company: 'Cape Bulk Logistics' },
  { plateNumber: 'ND123456', driverName: 'Ayanda Zulu', company: null },
];
const { database, close } = await openOperatorDatabase(loadEnv());
try {
  const tenantId = await ensureTenant(database, DEMO_TENANT);
  const lines: string[] = [];
  for (const role of ROLES) {
    const username = `demo-${role.replace('_', '-')}`;
    const password = randomBytes(9).toString('base64url');
    await upsertUser(database, {
      tenantId,
      username,
      password,
      fullName: `Demo ${ROLE_LABELS[role]}`,
      role,
    });
    lines.push(`  ${ROLE_LABELS[role].padEnd(15)} ${username.padEnd(22)} ${password}`);
  }
  const today = siteDay(new Date());
  await database.db
    .insert(approvedVehicles)
    .values(
      DEMO_VEHICLES.map((v) => ({
        ...v,
        tenantId,
        id: newId(),
        approvedUntil: addMonths(today, 3),
      })),
    )
    .onConflictDoNothing();
  const existingEntries = await database.db.$count(entryLogs, eq(entryLogs.tenantId, tenantId));
  if (existingEntries === 0) {
    await database.db.insert(entryLogs).values(
      DEMO_VEHICLES.slice(0, 3).map((v, i) => ({
        tenantId,
        id: newId(),
        timestamp: new Date(Date.now() - (i + 1) * 37 * 60_000),
        category: 'contracted' as const,
        plateNumber: v.plateNumber,
        vehicleApproved: true,
        faceVerified: i !== 2,
        entryGranted: true,
        matchScore: i !== 2 ? 88 - i * 5 : null,
        driverName: v.driverName,
        transportName: v.company,
        recordedByName: 'Demo Security Guard',
      })),
    );
  }
  process.stdout.write(
    `Demo organization "${DEMO_TENANT}" is ready. Sign in with:\n${lines.join('\n')}\n`,
  );
} finally {
  await close();
}
