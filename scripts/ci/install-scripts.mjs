// Install-script check, run on the output of a clean `npm ci` (CI does): npm 11 skips, or will
// skip, the install scripts of dependencies that package.json's `allowScripts` does not cover, and
// says so with `npm warn install-scripts …` lines. Every package with an install script must be
// declared there, approved (true: the product needs the script) or denied (false: it does not), so
// a new or upgraded dependency with a script fails CI until someone has reviewed it.
//
//   npm ci 2>&1 | tee .tmp/npm-ci.log; node scripts/ci/install-scripts.mjs .tmp/npm-ci.log
//
// Reads the log from the file named, or from standard input. Exits 1 when the log has such a warning.
import { readFileSync } from 'node:fs';

/** The warnings npm 11 prints for scripts `allowScripts` does not cover (see `npm help install-scripts`). */
export function uncoveredInstallScripts(log) {
  return log
    .split(/\r?\n/)
    .filter(
      (line) =>
        /^npm (warn|WARN) install-scripts\b/.test(line) ||
        /not yet covered by allowScripts/.test(line),
    );
}

const isMain = import.meta.url === `file://${process.argv[1]}`;
if (isMain) {
  const file = process.argv[2];
  const log = readFileSync(file ?? 0, 'utf8');
  const warnings = uncoveredInstallScripts(log);
  if (warnings.length > 0) {
    console.error(
      'npm ci ran into install scripts that package.json "allowScripts" does not cover:',
    );
    for (const line of warnings) console.error(`  ${line}`);
    console.error(
      'Review each script, then declare it: `npm install-scripts approve <pkg>` when the product needs it, ' +
        '`npm install-scripts deny <pkg>` when it does not (docs/security.md, "Install scripts").',
    );
    process.exit(1);
  }
  console.log('install scripts: every dependency install script is declared in allowScripts.');
}
