import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { REPO_ROOT } from './server-process';

/** BENCH_DOC_FILE writes the sections elsewhere (smoke runs that must not touch the measured figures). */
const DOC = path.resolve(REPO_ROOT, process.env.BENCH_DOC_FILE ?? 'docs/benchmarks.md');

export function machineLine(): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  return `${os.cpus().length} × ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
}

/** Replaces one `## Heading` section of docs/benchmarks.md, leaving the others as they are. */
export async function writeBenchmarkSection(heading: string, body: string) {
  const current = await readFile(DOC, 'utf8').catch(
    () => '# Benchmarks\n\nEach section is written by its command.\n',
  );
  const section = `## ${heading}\n\n${body.trim()}\n`;
  const pattern = new RegExp(`## ${heading}\\n[\\s\\S]*?(?=\\n## |$)`);
  const next = pattern.test(current)
    ? current.replace(pattern, section)
    : `${current.trimEnd()}\n\n${section}`;
  await writeFile(DOC, next.endsWith('\n') ? next : `${next}\n`);
}
