import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterEach, describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('./contract-messages.mjs', import.meta.url));

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A contracts folder with the given files and an English errors catalogue beside it. */
function aRepo(
  files: Record<string, string>,
  contract: Record<string, string>,
  server?: { files: Record<string, string>; catalogue: Record<string, string> },
) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'contract-messages-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  let modules = 'none';
  if (server) {
    modules = path.join(dir, 'modules');
    for (const [name, text] of Object.entries(server.files)) {
      mkdirSync(path.dirname(path.join(modules, name)), { recursive: true });
      writeFileSync(path.join(modules, name), text);
    }
  }
  const catalogue = path.join(dir, 'errors.json');
  writeFileSync(
    catalogue,
    JSON.stringify({ UNAUTHENTICATED: 'Please sign in.', contract, server: server?.catalogue }),
  );
  return { dir, catalogue, modules };
}

function check({ dir, catalogue, modules }: { dir: string; catalogue: string; modules: string }) {
  const run = spawnSync(
    process.execPath,
    [SCRIPT, '--contracts', dir, '--catalogue', catalogue, '--server-modules', modules],
    { encoding: 'utf8' },
  );
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

const CONTRACT = `
import { z } from 'zod';
export const LIMIT = 5;
export const NOTE_MESSAGE = 'Keep it short.';
export const ID_MESSAGES = { digits: 'Digits only.', length: 'Thirteen digits.' };
const label = 'Name';
export const Schema = z
  .object({
    name: z.string({ error: 'Enter a name' }).min(1, 'Name is required').max(LIMIT, \`At most \${LIMIT} letters\`),
    email: z.string().email('Enter a valid e-mail address'),
    code: z.string().regex(/^\\d+$/, "Digits, please"),
    other: z.string().describe('not a message'),
  })
  .refine((body) => body.name !== body.email, { message: \`\${label} is not the e-mail\`, path: ['name'] });
`;

const WORDED = {
  enterName: 'Enter a name',
  nameRequired: 'Name is required',
  atMost: 'At most {{max}} letters',
  email: 'Enter a valid e-mail address',
  digits: 'Digits, please',
  note: 'Keep it short.',
  idDigits: 'Digits only.',
  idLength: 'Thirteen digits.',
  notEmail: '{{label}} is not the e-mail',
};

// Each case starts node and parses the contracts: slow on a busy machine, so a generous timeout.
describe('scripts/ci/contract-messages.mjs (issue 19)', { timeout: 30_000 }, () => {
  it('passes when the catalogue words every message, template ones by their placeholders', () => {
    const result = check(aRepo({ 'a.ts': CONTRACT }, WORDED));
    expect(result.output).toContain('all 9 worded by the catalogue');
    expect(result.status).toBe(0);
  });

  it('fails on each message the catalogue does not word, naming its file and line', () => {
    const { nameRequired: _n, atMost: _a, idLength: _i, ...partial } = WORDED;
    const result = check(aRepo({ 'a.ts': CONTRACT }, partial));
    expect(result.status).toBe(1);
    expect(result.output).toContain('a.ts:9: "Name is required"');
    expect(result.output).toContain('a.ts:9: "At most ${…} letters"');
    expect(result.output).toContain('"Thirteen digits."');
    expect(result.output).not.toContain('not a message');
  });

  it('fails on a catalogue entry no contract says (its English drifted from the contract)', () => {
    const result = check(aRepo({ 'a.ts': CONTRACT }, { ...WORDED, old: 'Name is needed' }));
    expect(result.status).toBe(1);
    expect(result.output).toContain('Catalogue entries no such message says');
    expect(result.output).toContain('old');
  });

  it('ignores test files', () => {
    const result = check(
      aRepo(
        { 'a.ts': CONTRACT, 'a.test.ts': "z.string().min(1, 'Only a test says this')" },
        WORDED,
      ),
    );
    expect(result.status).toBe(0);
  });

  it("checks the daily server modules' AppError messages against the server section", () => {
    const service = `
const INVALID_CREDENTIALS = 'Invalid username or password';
export function signIn(plate: string, minutes: number) {
  if (!plate) throw new AppError('UNAUTHENTICATED', INVALID_CREDENTIALS);
  if (plate === 'x') throw new AppError('UNAUTHENTICATED', 'Please sign in.');
  if (minutes) throw new AppError('RATE_LIMITED', \`Too many failed sign-in attempts. Try again in \${minutes} minute\${minutes === 1 ? '' : 's'}.\`);
  throw new AppError(
    'CONFLICT',
    \`Vehicle \${plate} is already registered.\`,
  );
}`;
    const files = { 'auth/auth.service.ts': service, 'users/users.service.ts': '' };
    const empty = { 'entry-logs/a.ts': '', 'visits/a.ts': '', 'approved-vehicles/a.ts': '' };
    const server = { files: { ...files, ...empty, 'drivers/a.ts': '' }, catalogue: {} };
    const failing = check(aRepo({ 'a.ts': CONTRACT }, WORDED, server));
    expect(failing.status).toBe(1);
    expect(failing.output).toContain('auth/auth.service.ts:4: "Invalid username or password"');
    expect(failing.output).toContain('"Vehicle ${…} is already registered."');
    // The code's own sentence words it already; a plural-ending hole is left to the code.
    expect(failing.output).not.toContain('Please sign in.');
    expect(failing.output).not.toContain('Too many failed');

    const catalogue = {
      invalid: 'Invalid username or password',
      registered: 'Vehicle {{plate}} is already registered.',
    };
    const passing = check(aRepo({ 'a.ts': CONTRACT }, WORDED, { ...server, catalogue }));
    expect(passing.output).toContain('server messages: all 3');
    expect(passing.status).toBe(0);
  });

  it('passes on the repository as it is (every contract message worded)', () => {
    const run = spawnSync(process.execPath, [SCRIPT], { encoding: 'utf8' });
    expect(run.stdout).toContain('worded by the catalogue');
    expect(run.status).toBe(0);
  });
});
