#!/usr/bin/env node
// Runs the TypeScript CLI through tsx: the package has no build step (see README).
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../src/cli.ts');
const code = await runCli(process.argv.slice(2));
if (code !== null) {
  await new Promise((resolve) => process.stdout.write('', resolve));
  process.exit(code);
}
