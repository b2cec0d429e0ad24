import type { Reading } from '@boomgate/contracts/readings';
import { type SQL, sql } from 'drizzle-orm';

import { type SealedTable, countTenantRows } from '@/modules/keys';
import type { Database } from '@/platform/db';
import { NUMBER_FIELDS } from '@/platform/personal-text';
import { type ColumnSealer, identityNumberDomain, isSealedValue } from '@/platform/sealing';

import type { CapturesRepository } from './captures.repository';

/**
 * Issue 26: a capture's reading holds the ID or passport number the engine read (and the MRZ
 * lines). Those fields' values are sealed with the tenant's data key (each as its JSON), the
 * rest of the reading stays as it is; the keyed hashes of the numbers go beside it
 * (`number_hashes`) for the data subject's export and erasure. Every read through the repository
 * opens them, so corrections, the Process dialog and the entry detail see the reading as before.
 */
const COLUMN = 'captures.reading';
const FIELDS = sql.raw(`(${[...NUMBER_FIELDS].map((field) => `'${field}'`).join(', ')})`);

type Sealer = Pick<ColumnSealer, 'seal' | 'open' | 'index'>;
type Field = { value: unknown; confidence: number; source: string };

const isPlain = (value: unknown) =>
  value !== null && value !== undefined && !(typeof value === 'string' && value.startsWith('sv1.'));

async function mapNumberFields(
  reading: Reading,
  change: (name: string, value: unknown) => Promise<unknown>,
): Promise<Reading> {
  const fields: Record<string, Field> = {};
  for (const [name, field] of Object.entries(reading.fields) as [string, Field][])
    fields[name] = NUMBER_FIELDS.has(name)
      ? { ...field, value: await change(name, field.value) }
      : field;
  return { ...reading, fields };
}

/** The reading as stored, with the keyed hashes of its numbers (none: null). */
export async function sealReading(
  sealer: Sealer,
  tenantId: string,
  reading: Reading | null | undefined,
): Promise<{ reading: Reading | null; numberHashes: string[] | null }> {
  if (!reading) return { reading: reading ?? null, numberHashes: null };
  const hashes: string[] = [];
  const sealed = await mapNumberFields(reading, async (name, value) => {
    if (!isPlain(value)) return value;
    if (typeof value === 'string' && name !== 'mrzLines')
      hashes.push(await sealer.index(tenantId, identityNumberDomain(value), value));
    return sealer.seal(tenantId, COLUMN, JSON.stringify(value));
  });
  return { reading: sealed, numberHashes: hashes.length > 0 ? hashes : null };
}

/** The reading as read (one stored before sealing reads as it is). */
export async function openReading<R extends Reading | null>(
  sealer: Sealer,
  tenantId: string,
  reading: R,
): Promise<R> {
  if (!reading) return reading;
  return (await mapNumberFields(reading, async (_name, value) =>
    typeof value === 'string' && isSealedValue(value)
      ? (JSON.parse(await sealer.open(tenantId, COLUMN, value)) as unknown)
      : value,
  )) as R;
}

/** The repository with the readings' numbers sealed on write and opened on every read. */
export function withSealedReadings(
  repository: CapturesRepository,
  sealer: Sealer,
): CapturesRepository {
  return {
    ...repository,
    async insert(tx, row) {
      const { reading, numberHashes } = await sealReading(sealer, row.tenantId, row.reading);
      await repository.insert(tx, { ...row, reading, numberHashes });
    },
    async find(tx, tenantId, id) {
      const row = await repository.find(tx, tenantId, id);
      return row && { ...row, reading: await openReading(sealer, tenantId, row.reading) };
    },
    async findByImageKeys(tx, tenantId, imageKeys) {
      const rows = await repository.findByImageKeys(tx, tenantId, imageKeys);
      return Promise.all(
        rows.map(async (row) => ({
          ...row,
          reading: await openReading(sealer, tenantId, row.reading),
        })),
      );
    },
  };
}

/** A number field of the reading whose value is plain (stored before sealing). */
const PLAIN = sql`exists (select 1 from jsonb_each(
    case when jsonb_typeof(reading -> 'fields') = 'object' then reading -> 'fields' else '{}'::jsonb end) f
  where f.key in ${FIELDS} and jsonb_typeof(f.value -> 'value') not in ('null')
    and not (jsonb_typeof(f.value -> 'value') = 'string' and f.value ->> 'value' like 'sv1.%'))`;
const olderThan = (version: number) => sql`exists (select 1 from jsonb_each(
    case when jsonb_typeof(reading -> 'fields') = 'object' then reading -> 'fields' else '{}'::jsonb end) f
  where f.key in ${FIELDS} and f.value ->> 'value' like 'sv1.%'
    and f.value ->> 'value' not like ${`sv1.${version}.%`})`;

/** What keys.seal-stored-data seals (readings stored before issue 26) and keys.reseal re-seals. */
export function capturesSealedTable(
  database: Pick<Database, 'withTenant' | 'db'>,
  sealer: Sealer,
): SealedTable {
  type Row = { id: string; reading: Reading };
  async function walk(
    tenantId: string,
    condition: SQL,
    batch: number,
    change: (reading: Reading) => Promise<{ reading: Reading; numberHashes?: string[] | null }>,
  ) {
    let after: string | null = null;
    let total = 0;
    for (;;) {
      const rows = await database.withTenant(tenantId, async (tx) => {
        const found = (
          await tx.execute<Row>(
            sql`select id::text as id, reading from captures
                where tenant_id = ${tenantId}::uuid and ${condition}
                  ${after === null ? sql`` : sql`and id > ${after}::uuid`}
                order by id limit ${batch}::int`,
          )
        ).rows;
        for (const row of found) {
          const next = await change(row.reading);
          await tx.execute(
            sql`update captures set reading = ${JSON.stringify(next.reading)}::jsonb
                  ${next.numberHashes === undefined ? sql`` : sql`, number_hashes = ${sql.param(next.numberHashes)}::text[]`}
                where tenant_id = ${tenantId}::uuid and id = ${row.id}::uuid`,
          );
          total++;
        }
        return found;
      });
      if (rows.length < batch) return total;
      after = rows[rows.length - 1]!.id;
    }
  }
  return {
    name: 'captures',
    unsealedTenants: async (limit) =>
      (
        await database.db.execute<{ tenant_id: string }>(
          sql`select tenant_id from captures_unsealed_tenants(${limit}::int)`,
        )
      ).rows.map((row) => row.tenant_id),
    sealStored: (tenantId, batch) =>
      walk(tenantId, PLAIN, batch, async (reading) => {
        // Values sealed already keep their place; the hashes are of every number, opened.
        const opened = await openReading(sealer, tenantId, reading);
        const { numberHashes } = await sealReading(sealer, tenantId, opened);
        return {
          reading: (await sealReading(sealer, tenantId, reading)).reading!,
          numberHashes,
        };
      }),
    resealOlder: (tenantId, version, batch) =>
      walk(tenantId, olderThan(version), batch, async (reading) => ({
        reading: await mapNumberFields(reading, async (_name, value) =>
          typeof value === 'string' && isSealedValue(value) && !value.startsWith(`sv1.${version}.`)
            ? sealer.seal(tenantId, COLUMN, await sealer.open(tenantId, COLUMN, value))
            : value,
        ),
      })),
    countOlder: (tx, tenantId, version) =>
      countTenantRows(
        tx,
        sql`captures`,
        sql`tenant_id = ${tenantId}::uuid and ${olderThan(version)}`,
      ),
  };
}
