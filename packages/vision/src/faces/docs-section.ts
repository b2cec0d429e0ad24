/** Replaces one `## Heading` section of a Markdown file, leaving every other section untouched. */

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export function replaceSection(text: string, heading: string, body: string): string {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.trim() === heading);
  const section = [heading, '', ...body.trimEnd().split('\n'), ''];
  if (start === -1) {
    const trimmed = text.trimEnd();
    return `${trimmed ? `${trimmed}\n\n` : ''}${section.join('\n')}`;
  }
  let end = lines.findIndex((l, i) => i > start && /^## /.test(l));
  if (end === -1) end = lines.length;
  return [...lines.slice(0, start), ...section, ...lines.slice(end)].join('\n').trimEnd() + '\n';
}

export function writeSection(file: string, title: string, heading: string, body: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const current = existsSync(file) ? readFileSync(file, 'utf8') : `# ${title}\n`;
  writeFileSync(file, replaceSection(current, heading, body));
}
