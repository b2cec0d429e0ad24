import { fileURLToPath } from 'node:url';

import { defineConfig } from 'vitest/config';

const serverSrc = fileURLToPath(new URL('./apps/server/src', import.meta.url));

// Crash and fault tests (docs/reliability.md): each file spawns the real server and kills or
// starves it. Not part of `npm test`; `npm run test:faults` and CI's own step run them. Files run
// in parallel because most of their time is spent waiting (restarts, leases, timeouts).
export default defineConfig({
  resolve: { alias: { '@/': `${serverSrc}/` } },
  test: {
    name: 'faults',
    environment: 'node',
    include: ['apps/server/src/testing/faults/*.fault.test.ts'],
    fileParallelism: true,
    maxWorkers: 4,
    testTimeout: 240_000,
    hookTimeout: 60_000,
  },
});
