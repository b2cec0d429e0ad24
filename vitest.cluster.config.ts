import { fileURLToPath } from 'node:url';

import { defineConfig } from 'vitest/config';

const serverSrc = fileURLToPath(new URL('./apps/server/src', import.meta.url));

// `npm run test:cluster` (issue 27): the cluster harness (scripts/cluster) under faults. Needs
// haproxy and postgresql-15 (Debian packages; .ci/run installs them) and root for pg_ctlcluster,
// or DATABASE_URL. Not part of `npm test`; CI runs it as its own step (about 3 minutes).
export default defineConfig({
  resolve: { alias: { '@/': `${serverSrc}/` } },
  test: {
    name: 'cluster',
    environment: 'node',
    include: ['scripts/cluster/*.cluster.test.ts'],
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 240_000,
  },
});
