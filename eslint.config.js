// @ts-check
import fs from 'node:fs';

import js from '@eslint/js';
import checkFile from 'eslint-plugin-check-file';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const webFeaturesDir = 'apps/web/src/features';
const webFeatures = fs.existsSync(webFeaturesDir) ? fs.readdirSync(webFeaturesDir) : [];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'test-results/**',
      '.tmp/**',
      '**/scratch/**',
      'apps/server/migrations/**',
      '**/*.js',
      '**/*.mjs',
      '**/*.cjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    plugins: { 'import-x': importX, 'check-file': checkFile },
    settings: {
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          noWarnOnMultipleProjects: true,
          project: [
            'apps/server/tsconfig.json',
            'apps/web/tsconfig.json',
            'packages/*/tsconfig.json',
            'tsconfig.json',
          ],
        }),
      ],
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/only-throw-error': 'off',
      // Fastify handlers and hooks are async by convention even when they do not await.
      '@typescript-eslint/require-await': 'off',
      'import-x/no-cycle': 'error',
      'check-file/filename-naming-convention': [
        'error',
        { '**/*.{ts,tsx}': 'KEBAB_CASE' },
        { ignoreMiddleExtensions: true },
      ],
      'check-file/folder-naming-convention': [
        'error',
        { '{apps,packages}/**/': 'NEXT_JS_APP_ROUTER_CASE' },
      ],
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'Read configuration in config/env.ts and pass it down.',
        },
      ],
    },
  },
  // Only the env loaders, process entry points and tooling read process.env.
  {
    files: [
      'apps/server/src/config/env.ts',
      'apps/server/src/testing/**',
      'apps/server/src/cli/**',
      'apps/web/e2e/**',
      'scripts/**',
      'packages/vision/src/**',
      'packages/agent/src/cli.ts',
      '*.config.ts',
      'apps/*/*.config.ts',
    ],
    rules: { 'no-restricted-properties': 'off' },
  },
  // Tests may poke at loosely typed JSON.
  {
    files: ['**/*.test.ts', '**/*.test.tsx', '**/testing/**', 'apps/web/e2e/**', 'scripts/**'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  // Server module boundaries (house style §3).
  {
    files: ['apps/server/src/modules/**/*.ts'],
    ignores: ['**/*.table.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@/modules/*/*'],
              message: 'Import other modules through their index: @/modules/<name>.',
            },
            {
              group: ['../**'],
              message: 'Leave a module through @/modules/<name> or @/platform/*.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/server/src/platform/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@/modules', '@/modules/**'],
              message: 'platform must not depend on modules.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@boomgate/server', '@boomgate/web', '**/apps/**'],
              message: 'packages never import apps.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/contracts/src/**/*.ts'],
    ignores: ['**/*.test.ts'], // unit tests beside the contracts may import vitest
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^(?!zod$|\\./).*', message: 'contracts depends on zod only.' }] },
      ],
    },
  },
  {
    files: ['packages/vision/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                'pg',
                'drizzle-orm',
                'drizzle-orm/*',
                'fastify',
                '@fastify/*',
                '@boomgate/contracts/*',
                // The typed readings, the plate normaliser/formatter and the face threshold are
                // shared with vision (each defined once).
                '!@boomgate/contracts/readings',
                '!@boomgate/contracts/plates',
                '!@boomgate/contracts/faces',
              ],
              message: 'vision knows nothing of tenants, SQL or HTTP.',
            },
          ],
        },
      ],
    },
  },
  // Web: shared code → features → app; a feature never imports another feature.
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...webFeatures.map((name) => ({
              target: `./apps/web/src/features/${name}`,
              from: './apps/web/src/features',
              except: [`./${name}`],
            })),
            { target: './apps/web/src/features', from: './apps/web/src/app' },
            {
              target: ['./apps/web/src/components', './apps/web/src/hooks', './apps/web/src/lib'],
              from: ['./apps/web/src/features', './apps/web/src/app'],
            },
          ],
        },
      ],
    },
  },
);
