import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import mainSource from '../main.tsx?raw';

import './zod-jitless';

// The built bundle is checked in a real browser under the server's CSP by the e2e Incoming Feed
// flow (no securitypolicyviolation on any page); this keeps the two preconditions from slipping.
describe('zod without eval', () => {
  it('is configured jitless', () => {
    expect(z.config().jitless).toBe(true);
  });

  it('is configured by main.tsx before anything else it imports can build a schema', () => {
    const imports = [...mainSource.matchAll(/^import\s+(?:[^'"]*from\s+)?'([^']+)';/gm)].map(
      (match) => match[1],
    );
    expect(imports.filter((source) => !source?.endsWith('.css'))[0]).toBe('@/lib/zod-jitless');
  });
});
