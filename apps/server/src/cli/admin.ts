import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';

import { PasswordSchema, UsernameSchema } from '@boomgate/contracts/primitives';

import { loadEnv } from '@/config/env';
import { COMMON_PASSWORD_MESSAGE, isCommonPassword } from '@/platform/common-passwords';

import { openOperatorDatabase } from './operator-database';
import { ensureTenant, upsertUser } from './provision';

const USAGE = `Usage: npm run admin -- create-super-admin [--username NAME] [--password PASSWORD]
                                   [--full-name "FULL NAME"] [--tenant "ORGANIZATION"]
Missing values are asked for (the password is not echoed). The tenant defaults to "Boomgate Platform".`;

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

const [command, ...rest] = process.argv.slice(2);
try {
  if (command === 'create-super-admin') await createSuperAdmin(rest);
  else {
    process.stderr.write(`${USAGE}\n`);
    process.exitCode = 2;
  }
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
