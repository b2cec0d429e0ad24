import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterEach, describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('./i18n-catalogues.mjs', import.meta.url));
const REPO_LOCALES = fileURLToPath(new URL('../../apps/web/src/locales', import.meta.url));

type Catalogue = Record<string, unknown>;

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A locales folder: languages.json plus <code>/<namespace>.json. */
function aLocales(catalogues: Record<string, Record<string, Catalogue>>) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'i18n-catalogues-'));
  dirs.push(dir);
  const meta = Object.fromEntries(
    Object.keys(catalogues).map((code) => [
      code,
      {
        nativeName: code,
        review: code === 'en' ? 'source' : 'machine-drafted, needs native review',
      },
    ]),
  );
  writeFileSync(path.join(dir, 'languages.json'), JSON.stringify(meta));
  for (const [code, namespaces] of Object.entries(catalogues)) {
    mkdirSync(path.join(dir, code));
    for (const [namespace, content] of Object.entries(namespaces)) {
      writeFileSync(path.join(dir, code, `${namespace}.json`), JSON.stringify(content));
    }
  }
  return dir;
}

function check(dir: string) {
  const run = spawnSync(process.execPath, [SCRIPT, '--dir', dir], { encoding: 'utf8' });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

const english = {
  auth: { login: { title: 'Sign In', welcome: 'Welcome back, {{name}}' } },
  dashboard: { today_one: '{{count}} today', today_other: '{{count}} today' },
};
const zulu = {
  auth: { login: { title: 'Ngena', welcome: 'Siyakwamukela futhi, {{name}}' } },
  dashboard: { today_one: '{{count}} namuhla', today_other: '{{count}} namuhla' },
};

describe('scripts/ci/i18n-catalogues.mjs (issue 19)', () => {
  it('passes complete catalogues', () => {
    const result = check(aLocales({ en: english, zu: zulu }));
    expect(result.output).toContain('complete');
    expect(result.status).toBe(0);
  });

  it('fails when a catalogue misses a key of English', () => {
    const incomplete = { ...zulu, auth: { login: { title: 'Ngena' } } };
    const result = check(aLocales({ en: english, zu: incomplete }));
    expect(result.status).toBe(1);
    expect(result.output).toContain('zu/auth.json: missing key "login.welcome"');
  });

  it('fails when a placeholder of English is missing or renamed', () => {
    const renamed = {
      ...zulu,
      auth: { login: { title: 'Ngena', welcome: 'Sawubona, {{igama}}' } },
    };
    const result = check(aLocales({ en: english, zu: renamed }));
    expect(result.status).toBe(1);
    expect(result.output).toContain('"login.welcome" has placeholders [igama], English has [name]');
  });

  it('fails on a missing namespace, an extra key and a plural category the language needs', () => {
    const portuguese = {
      auth: { login: { title: 'Iniciar Sessão', welcome: 'Olá, {{name}}', extra: 'x' } },
      // Portuguese has one, many and other (CLDR): `many` is missing.
      dashboard: { today_one: '{{count}} hoje', today_other: '{{count}} hoje' },
    };
    const result = check(aLocales({ en: english, pt: portuguese, zu: { auth: zulu.auth } }));
    expect(result.status).toBe(1);
    expect(result.output).toContain('pt/auth.json: key "login.extra" is not in English');
    expect(result.output).toContain('pt/dashboard.json: missing key "today_many"');
    expect(result.output).toContain('zu/dashboard.json: missing namespace');
  });

  it("passes the repository's own catalogues", () => {
    const result = check(REPO_LOCALES);
    expect(result.output).toContain('complete');
    expect(result.status).toBe(0);
  });
});
