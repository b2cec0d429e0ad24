import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

/**
 * Drizzle's `.desc()` in an index makes `DESC NULLS LAST`, which `ORDER BY … DESC` (NULLS FIRST)
 * cannot use: every newest-first list then sorted the whole tenant (fixed in migration 0014). Index
 * ascending and let PostgreSQL read it backwards. Checked on the newest migration snapshot, i.e.
 * the schema the migrations build.
 */
type SnapshotIndex = {
  name: string;
  columns: { expression: string; asc: boolean; nulls: string }[];
};
type Snapshot = { tables: Record<string, { indexes: Record<string, SnapshotIndex> }> };

const META = fileURLToPath(new URL('../migrations/meta/', import.meta.url));

describe('index column order', () => {
  it('has no descending NULLS LAST index column', () => {
    const newest = readdirSync(META)
      .filter((file) => file.endsWith('_snapshot.json'))
      .sort()
      .at(-1);
    expect(newest).toBeDefined();
    const snapshot = JSON.parse(readFileSync(`${META}${newest}`, 'utf8')) as Snapshot;
    const offenders = Object.values(snapshot.tables).flatMap((table) =>
      Object.values(table.indexes).flatMap((index) =>
        index.columns
          .filter((column) => !column.asc && column.nulls === 'last')
          .map((column) => `${index.name}.${column.expression}`),
      ),
    );
    expect(Object.keys(snapshot.tables).length).toBeGreaterThan(10);
    expect(offenders).toEqual([]);
  });
});
