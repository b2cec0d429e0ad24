import { fileURLToPath } from 'node:url';

import { defineConfig } from 'vitest/config';

const serverSrc = fileURLToPath(new URL('./apps/server/src', import.meta.url));

// Three projects: fast node unit tests, the web app's jsdom tests (apps/web/vitest.config.ts),
// and integration tests against a real PostgreSQL (embedded by default, DATABASE_URL to override).
export default defineConfig({
  test: {
    projects: [
      {
        resolve: { alias: { '@/': `${serverSrc}/` } },
        test: {
          name: 'unit',
          environment: 'node',
          include: [
            'packages/*/src/**/*.test.ts',
            'apps/server/src/**/*.test.ts',
            'scripts/**/*.test.ts',
          ],
          exclude: [
            '**/*.int.test.ts',
            '**/*.fault.test.ts',
            '**/*.cluster.test.ts',
            // Their own runner (npm run test:site-sync): two servers and a browser, longer timeouts.
            '**/*.site-sync.test.ts',
            '**/node_modules/**',
          ],
        },
      },
      'apps/web/vitest.config.ts',
      {
        resolve: { alias: { '@/': `${serverSrc}/` } },
        test: {
          name: 'integration',
          environment: 'node',
          include: ['apps/server/src/**/*.int.test.ts', 'packages/*/src/**/*.int.test.ts'],
          globalSetup: ['apps/server/src/testing/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
