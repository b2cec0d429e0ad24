import { sql } from 'drizzle-orm';

import { type SealedTable, countTenantRows } from '@/modules/keys';
import type { Database, DbExecutor } from '@/platform/db';
import { NUMBER_FIELDS } from '@/platform/personal-text';
import { type ColumnSealer, identityNumberDomain, isSealedValue } from '@/platform/sealing';

import type { CorrectionsRepository } from './corrections.repository';
import type { ReadingCorrectionRow } from './corrections.table';

/**
 * Issue 26: a correction of an ID or passport number keeps the number the guard typed and the one
 * the engine read. Both are sealed with the tenant's data key (the read value as its JSON, inside
 * `{ value }`), with the typed number's keyed hash beside it for the data subject's export and
 * erasure. Other fields (plates, names, dates) stay as they are. The entry detail masks them for a
 * guard as before; office roles see them opened.
 */
export const SEALED_FIELDS = NUMBER_FIELDS;

const TYPED = 'reading_corrections.typed_value';
const READ = 'reading_corrections.read_value';
const FIELDS = sql.raw(`(${[...SEALED_FIELDS].map((field) => `'${field}'`).join(', ')})`);

type Sealer = Pick<ColumnSealer, 'seal' | 'open' | 'index'>;
type Values = Pick<ReadingCorrectionRow, 'tenantId' | 'field' | 'typedValue'> & {
  readValue?: ReadingCorrectionRow['readValue'] | undefined;
};

const readIsPlain = (readValue: Values['readValue']): readValue is { value: unknown } =>
  readValue !== null &&
  readValue !== undefined &&
  readValue.value !== null &&
  readValue.value !== undefined &&
  !(typeof readValue.value === 'string' && readValue.value.startsWith('sv1.'));

/** The row as stored: a sealed field's values sealed (those already sealed left as they are). */
async function sealValues<Row extends Values>(sealer: Sealer, row: Row) {
  if (!SEALED_FIELDS.has(row.field)) return row;
  const { tenantId, typedValue, readValue } = row;
  const typed = isSealedValue(typedValue) ? await sealer.open(tenantId, TYPED, typedValue) : null;
  return {
    ...row,
    typedValue: typed === null ? await sealer.seal(tenantId, TYPED, typedValue) : typedValue,
    typedValueHash: await sealer.index(
      tenantId,
      identityNumberDomain(typed ?? typedValue),
      typed ?? typedValue,
    ),
    readValue: readIsPlain(readValue)
      ? { value: await sealer.seal(tenantId, READ, JSON.stringify(readValue.value)) }
      : readValue,
  };
}

/** The row as written (a row stored before sealing reads as it is). */
export async function openValues<Row extends Values>(sealer: Sealer, row: Row): Promise<Row> {
  if (!SEALED_FIELDS.has(row.field)) return row;
  const { tenantId, typedValue, readValue } = row;
  const read = readValue?.value;
  return {
    ...row,
    typedValue: await sealer.open(tenantId, TYPED, typedValue),
    readValue:
      typeof read === 'string' && isSealedValue(read)
        ? { value: JSON.parse(await sealer.open(tenantId, READ, read)) as unknown }
        : readValue,
  };
}

/** The repository with the numbers sealed on write and opened on every read. */
export function withSealedCorrections(
  repository: CorrectionsRepository,
  sealer: Sealer,
): CorrectionsRepository {
  const openAll = (rows: ReadingCorrectionRow[]) =>
    Promise.all(rows.map((row) => openValues(sealer, row)));
  return {
    ...repository,
    insert: async (tx, rows) =>
      repository.insert(tx, await Promise.all(rows.map((row) => sealValues(sealer, row)))),
    listFor: async (...args) => openAll(await repository.listFor(...args)),
    listForDocuments: async (...args) => openAll(await repository.listForDocuments(...args)),
  };
}

type StoredRow = { id: string; tenant_id: string; field: string; typed_value: string } & {
  typed_value_hash: string | null;
  read_value: ReadingCorrectionRow['readValue'];
};

/** What keys.seal-stored-data seals (corrections stored before issue 26) and keys.reseal re-seals. */
export function correctionsSealedTable(
  database: Pick<Database, 'withTenant' | 'db'>,
  sealer: Sealer,
): SealedTable {
  const unsealed = sql`field in ${FIELDS} and (typed_value not like 'sv1.%'
    or typed_value_hash is null or read_value ->> 'value' not like 'sv1.%')`;
  const older = (version: number) => sql`field in ${FIELDS} and (
    (typed_value like 'sv1.%' and typed_value not like ${`sv1.${version}.%`})
    or (read_value ->> 'value' like 'sv1.%' and read_value ->> 'value' not like ${`sv1.${version}.%`}))`;

  async function write(
    tx: DbExecutor,
    row: StoredRow,
    values: Values & { typedValueHash?: string },
  ) {
    await tx.execute(
      sql`update reading_corrections set typed_value = ${values.typedValue},
            typed_value_hash = ${values.typedValueHash ?? row.typed_value_hash},
            read_value = ${values.readValue ? JSON.stringify(values.readValue) : null}::jsonb
          where tenant_id = ${row.tenant_id}::uuid and id = ${row.id}::uuid`,
    );
  }

  async function walk(
    tenantId: string,
    condition: ReturnType<typeof sql>,
    batch: number,
    change: (row: StoredRow) => Promise<(Values & { typedValueHash?: string }) | null>,
  ) {
    let after: string | null = null;
    let total = 0;
    for (;;) {
      const rows = await database.withTenant(tenantId, async (tx) => {
        const found = (
          await tx.execute<StoredRow>(
            sql`select id::text as id, tenant_id::text as tenant_id, field, typed_value,
                  typed_value_hash, read_value from reading_corrections
                where tenant_id = ${tenantId}::uuid and ${condition}
                  ${after === null ? sql`` : sql`and id > ${after}::uuid`}
                order by id limit ${batch}::int`,
          )
        ).rows;
        for (const row of found) {
          const values = await change(row);
          if (!values) continue;
          await write(tx, row, values);
          total++;
        }
        return found;
      });
      if (rows.length < batch) return total;
      after = rows[rows.length - 1]!.id;
    }
  }

  const asValues = (row: StoredRow): Values => ({
    tenantId: row.tenant_id,
    field: row.field,
    typedValue: row.typed_value,
    readValue: row.read_value,
  });

  return {
    name: 'reading_corrections',
    unsealedTenants: async (limit) =>
      (
        await database.db.execute<{ tenant_id: string }>(
          sql`select tenant_id from reading_corrections_unsealed_tenants(${limit}::int)`,
        )
      ).rows.map((row) => row.tenant_id),
    sealStored: (tenantId, batch) =>
      walk(tenantId, unsealed, batch, (row) => sealValues(sealer, asValues(row))),
    resealOlder: (tenantId, version, batch) =>
      walk(tenantId, older(version), batch, async (row) => {
        const opened = await openValues(sealer, asValues(row));
        const reseal = async (column: string, stored: string, plain: string) =>
          isSealedValue(stored) && !stored.startsWith(`sv1.${version}.`)
            ? sealer.seal(row.tenant_id, column, plain)
            : stored;
        const read = row.read_value?.value;
        return {
          ...asValues(row),
          typedValue: await reseal(TYPED, row.typed_value, opened.typedValue),
          readValue:
            typeof read === 'string' && isSealedValue(read)
              ? { value: await reseal(READ, read, JSON.stringify(opened.readValue?.value)) }
              : row.read_value,
        };
      }),
    countOlder: (tx, tenantId, version) =>
      countTenantRows(
        tx,
        sql`reading_corrections`,
        sql`tenant_id = ${tenantId}::uuid and ${older(version)}`,
      ),
  };
}
