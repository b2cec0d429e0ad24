import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
function aRepo(files: Record<string, string>, contract: Record<string, string>) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'contract-messages-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  const catalogue = path.join(dir, 'errors.json');
  writeFileSync(catalogue, JSON.stringify({ INVALID: 'Not valid.', contract }));
  return { dir, catalogue };
}

function check({ dir, catalogue }: { dir: string; catalogue: string }) {
  const run = spawnSync(process.execPath, [SCRIPT, '--contracts', dir, '--catalogue', catalogue], {
    encoding: 'utf8',
  });
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

describe('scripts/ci/contract-messages.mjs (issue 19)', () => {
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
    expect(result.output).toContain('Catalogue entries no contract says');
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

  it('passes on the repository as it is (every contract message worded)', () => {
    const run = spawnSync(process.execPath, [SCRIPT], { encoding: 'utf8' });
    expect(run.stdout).toContain('worded by the catalogue');
    expect(run.status).toBe(0);
  });
});
