import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';

import { defineConfig } from 'vitest/config';

const serverSrc = fileURLToPath(new URL('./apps/server/src', import.meta.url));

// Three projects: fast node unit tests, the web app's jsdom tests (apps/web/vitest.config.ts),
// and integration tests against a real PostgreSQL (embedded by default, DATABASE_URL to override).
export default defineConfig({
  test: {
    // One test file per core. Vitest's default leaves a core free (cores - 1), which on CI's two
    // cores ran the whole suite in one worker; the integration files wait on PostgreSQL, another
    // process, much of the time. Two workers on two cores: 903 s -> 649 s for `npm test`, all
    // passing (2 x AMD EPYC, 2026-11-29). Each file clones its own database from the template.
    maxWorkers: availableParallelism(),
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
