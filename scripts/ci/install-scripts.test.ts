import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('./install-scripts.mjs', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

// What npm 11.19 printed on a clean `npm ci` before package.json declared allowScripts.
const UNCOVERED_LOG = `added 1069 packages in 47s
npm warn install-scripts 2 packages have install scripts not yet covered by allowScripts:
npm warn install-scripts   esbuild@0.25.12 (postinstall: node install.js)
npm warn install-scripts   core-js@3.29.1 (postinstall: node -e "try{require('./postinstall')}catch(e){}")
npm warn install-scripts
npm warn install-scripts Run \`npm install-scripts ls\` to review, or \`npm install-scripts approve <pkg>\` to allow.
`;
const CLEAN_LOG = `npm warn EBADENGINE Unsupported engine {
npm warn EBADENGINE }

added 1069 packages in 2m
`;

const run = (log: string) =>
  spawnSync(process.execPath, [SCRIPT], { input: log, encoding: 'utf8' });

describe('scripts/ci/install-scripts.mjs', () => {
  it('fails on a clean install that prints an install-scripts warning, naming the packages', () => {
    const result = run(UNCOVERED_LOG);

    expect(result.status).toBe(1);
    expect(result.stderr).toContain('esbuild@0.25.12');
    expect(result.stderr).toContain('core-js@3.29.1');
  });

  it('passes an install without such a warning', () => {
    const result = run(CLEAN_LOG);

    expect(result.status).toBe(0);
  });

  it('declares every install script the lockfile brings, approved or denied', () => {
    const lock = JSON.parse(readFileSync(`${ROOT}/package-lock.json`, 'utf8')) as {
      packages: Record<string, { hasInstallScript?: boolean }>;
    };
    const declared = (
      JSON.parse(readFileSync(`${ROOT}/package.json`, 'utf8')) as {
        allowScripts: Record<string, boolean>;
      }
    ).allowScripts;
    const withScripts = new Set(
      Object.entries(lock.packages)
        .filter(([location, entry]) => entry.hasInstallScript && location.includes('node_modules/'))
        .map(([location]) => location.slice(location.lastIndexOf('node_modules/') + 13)),
    );

    expect([...withScripts].filter((name) => !(name in declared))).toEqual([]);
    expect(Object.keys(declared).filter((name) => !withScripts.has(name))).toEqual([]);
  });
});
