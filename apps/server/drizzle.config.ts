import { defineConfig } from 'drizzle-kit';

// `npm run db:generate` diffs the *.table.ts files against migrations/ and writes new SQL.
// Row-level security, roles and grants live in hand-written (--custom) migrations beside them.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/modules/*/*.table.ts',
  out: './migrations',
  casing: 'snake_case',
});
