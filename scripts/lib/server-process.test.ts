import { readFileSync } from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { REPO_ROOT, SERVER_NODE_OPTIONS } from './server-process';

describe('SERVER_NODE_OPTIONS', () => {
  it('are the options `npm run serve` starts the server with, in the same place', () => {
    const manifest = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const serve = manifest.scripts.serve ?? '';
    expect(serve).toContain(
      `node ${SERVER_NODE_OPTIONS.join(' ')} --import tsx apps/server/src/main.ts`,
    );
  });
});
