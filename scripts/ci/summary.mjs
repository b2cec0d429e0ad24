// Prints one closing line, "Tests: N passed, M failed", over every result file that exists
// (Vitest JSON reports and the end-to-end runner's results), so CI logs state what ran.
import { existsSync, readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
for (const file of process.argv.slice(2)) {
  if (!existsSync(file)) continue;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  passed += report.numPassedTests ?? report.passed ?? 0;
  failed += report.numFailedTests ?? report.failed ?? 0;
}
console.log(`Tests: ${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
