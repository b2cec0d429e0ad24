import { fileURLToPath } from 'node:url';

import { defineConfig } from 'vitest/config';

const serverSrc = fileURLToPath(new URL('./apps/server/src', import.meta.url));

// `npm run test:site-sync` (issue 28): central and a site node (two server processes, each on its
// own embedded PostgreSQL) with a loopback TCP proxy as the link, which the harness cuts and
// restores, and (site-sync-ui) shows the cut in Chromium on both servers' built web app. Not part
// of `npm test`; CI runs it as its own step after the build (it serves apps/web/dist).
export default defineConfig({
  resolve: { alias: { '@/': `${serverSrc}/` } },
  test: {
    name: 'site-sync',
    environment: 'node',
    include: ['scripts/site-sync/*.site-sync.test.ts'],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 240_000,
  },
});
