import { randomBytes } from 'node:crypto';

import { ROLE_LABELS, ROLES } from '@boomgate/contracts/roles';

import { loadEnv } from '@/config/env';

import { openOperatorDatabase } from './operator-database';
import { ensureTenant, upsertUser } from './provision';

const DEMO_TENANT = 'Demo Mine';

/**
 * A demo organization with one user per role. Passwords are new on every run and printed once;
 * running it again resets them. Vehicles and entries join once those modules exist (issue 5).
 */
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
  process.stdout.write(
    `Demo organization "${DEMO_TENANT}" is ready. Sign in with:\n${lines.join('\n')}\n`,
  );
} finally {
  await close();
}
