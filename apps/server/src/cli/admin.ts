import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';

import { PasswordSchema, UsernameSchema } from '@boomgate/contracts/primitives';

import { z } from 'zod';

import { loadEnv } from '@/config/env';
import { createAuditService } from '@/modules/audit';
import { createKeysModule } from '@/modules/keys';
import { systemClock } from '@/platform/clock';
import { COMMON_PASSWORD_MESSAGE, isCommonPassword } from '@/platform/common-passwords';
import { decodeEncryptionKey } from '@/platform/crypto';
import { loadOrCreateSecrets } from '@/platform/secrets';
import { createStorage } from '@/platform/storage';

import { openOperatorDatabase } from './operator-database';
import { ensureTenant, upsertUser } from './provision';

const USAGE = `Usage: npm run admin -- create-super-admin [--username NAME] [--password PASSWORD]
                                   [--full-name "FULL NAME"] [--tenant "ORGANIZATION"]
Missing values are asked for (the password is not echoed). The tenant defaults to "Boomgate Platform".
       npm run admin -- rotate-data-key --tenant TENANT_ID
Starts a rotation of the tenant's data key (issue 26): new data is sealed with a new key at once;
the worker's keys.reseal job re-encrypts what the old key sealed, then erases it.`;

async function ask(question: string, { hidden = false } = {}): Promise<string> {
  if (!process.stdin.isTTY)
    throw new Error(`${question.trim()} is required (no terminal to ask on).\n${USAGE}`);
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  if (hidden) {
    const output = rl as unknown as { _writeToOutput: (text: string) => void };
    output._writeToOutput = (text) => process.stdout.write(text.startsWith(question) ? text : '');
  }
  try {
    return await rl.question(question);
  } finally {
    if (hidden) process.stdout.write('\n');
    rl.close();
  }
}

async function createSuperAdmin(args: string[]) {
  const { values } = parseArgs({
    args,
    options: {
      username: { type: 'string' },
      password: { type: 'string' },
      'full-name': { type: 'string' },
      tenant: { type: 'string' },
    },
  });
  const username = UsernameSchema.parse(values.username ?? (await ask('Username: ')));
  const password = PasswordSchema.parse(
    values.password ?? (await ask('Password: ', { hidden: true })),
  );
  if (isCommonPassword(password)) throw new Error(COMMON_PASSWORD_MESSAGE);
  const fullName = values['full-name'] ?? (await ask('Full name: '));
  const tenantName = values.tenant ?? 'Boomgate Platform';

  const { database, close } = await openOperatorDatabase(loadEnv());
  try {
    const tenantId = await ensureTenant(database, tenantName);
    const outcome = await upsertUser(database, {
      tenantId,
      username,
      password,
      fullName,
      role: 'super_admin',
    });
    process.stdout.write(`Super admin ${username} ${outcome} in "${tenantName}".\n`);
  } finally {
    await close();
  }
}

async function rotateDataKey(args: string[]) {
  const { values } = parseArgs({ args, options: { tenant: { type: 'string' } } });
  const tenantId = z.uuid().parse(values.tenant);
  const env = loadEnv();
  const secrets = await loadOrCreateSecrets(env.dataDir);
  const { storage } = await createStorage(env);
  const { database, close } = await openOperatorDatabase(env);
  try {
    const keys = createKeysModule({
      database,
      master: decodeEncryptionKey(env.ENCRYPTION_KEY ?? secrets.dataEncryptionKey),
      previousMasters: [],
      storage,
      audit: createAuditService({ clock: systemClock }),
      clock: systemClock,
      cacheMs: env.KEY_CACHE_SECONDS * 1000,
    });
    const version = await keys.service.rotateDataKey(tenantId, null);
    process.stdout.write(
      `Tenant ${tenantId} now seals with data key v${version}; the worker re-encrypts the rest.\n`,
    );
  } finally {
    await close();
  }
}

const [command, ...rest] = process.argv.slice(2);
try {
  if (command === 'create-super-admin') await createSuperAdmin(rest);
  else if (command === 'rotate-data-key') await rotateDataKey(rest);
  else {
    process.stderr.write(`${USAGE}\n`);
    process.exitCode = 2;
  }
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
