import { passesLuhn } from '@boomgate/contracts/sa-id-number';
import { drizzle } from 'drizzle-orm/node-postgres';
import type pg from 'pg';

import { createKeyring } from '@/modules/keys/keyring';
import { createKeysRepository } from '@/modules/keys/keys.repository';
import { ENTRY_SEALED_COLUMNS } from '@/modules/entry-logs/entry-sealing';
import { sealedColumnName } from '@/modules/keys/sealed-columns';
import { DELIVERY_BODY } from '@/modules/webhooks/sealed-deliveries';
import { INCOMING_ID_NUMBER } from '@/modules/webhooks/sealed-incoming';
import type { Database, Tx } from '@/platform/db';
import { type ColumnSealer, PASSPORT_NUMBER, SA_ID_NUMBER } from '@/platform/sealing';

/**
 * Issue 26 for the scale data (part f): the seed writes ID and passport numbers as production
 * holds them after issue 26, sealed with each tenant's own keys (made by the real key ring, wrapped
 * by the master key the bench server runs with) and with their keyed hashes beside them, so the app
 * opens them as it opens live data and the keys.seal-stored-data job finds nothing to do.
 *
 * Sealing ten million values one by one would take as long as the job the seed must spare the
 * bench, so each tenant gets a pool of a few thousand drivers (drivers come back, as at a real
 * gate), sealed here in Node, in a session-local table the seed's INSERT … SELECT joins.
 */
export type ScaleSealer = Pick<ColumnSealer, 'seal' | 'open' | 'index'>;

const DAY_MS = 86_400_000;

/**
 * The real key ring on the seed's own connection and transaction (the owner, which bypasses
 * row-level security): a tenant's first use makes its keys there, so they commit or roll back with
 * the seed. Keys are read once per tenant (no expiry while seeding).
 */
export function createScaleSealer(client: pg.ClientBase, master: Buffer): ScaleSealer {
  const db = drizzle({ client: client as pg.Client, casing: 'snake_case' });
  const database: Pick<Database, 'withTenantAside'> = {
    // The key ring's load reads and inserts through the repository only, which a plain
    // connection serves as a transaction would (the seed's transaction is already open).
    withTenantAside: (_tenantId, work) => work(db as unknown as Tx),
  };
  return createKeyring({
    database,
    repository: createKeysRepository(),
    master,
    cacheMs: 7 * DAY_MS,
  });
}

/** A small deterministic generator (mulberry32): the same tenant gets the same drivers. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A checksum-valid South African ID number of someone born 1960–2005 (mostly citizens). */
export function saIdNumber(random: () => number): string {
  const born = new Date(Date.UTC(1960, 0, 1) + Math.floor(random() * 46 * 365.25) * DAY_MS);
  const yymmdd =
    String(born.getUTCFullYear() % 100).padStart(2, '0') +
    String(born.getUTCMonth() + 1).padStart(2, '0') +
    String(born.getUTCDate()).padStart(2, '0');
  const sequence = String(Math.floor(random() * 10_000)).padStart(4, '0');
  const citizenship = random() < 0.92 ? '0' : '1';
  const first12 = `${yymmdd}${sequence}${citizenship}8`;
  for (let check = 0; check <= 9; check++)
    if (passesLuhn(`${first12}${check}`)) return `${first12}${check}`;
  throw new Error('no Luhn check digit'); // unreachable: one of ten digits always passes
}

/** A foreign driver's passport number (two letters, seven digits; no MRZ of its own). */
export function passportNumber(random: () => number): string {
  const letter = () => String.fromCharCode(65 + Math.floor(random() * 26));
  return `${letter()}${letter()}${String(Math.floor(random() * 1e7)).padStart(7, '0')}`;
}

/** One in this many pooled drivers is foreign, with a passport number instead of an SA ID. */
const PASSPORT_EVERY = 30;

/** How many distinct drivers a tenant's gate sees: a few thousand at the largest site. */
export const driverPoolSize = (entryLogs: number, incomingRequests: number) =>
  Math.min(3000, Math.max(50, Math.round((entryLogs + incomingRequests) / 25)));

const ENTRY_ID_NUMBER = sealedColumnName(ENTRY_SEALED_COLUMNS, 'driver_id_number');
const ENTRY_PASSPORT = sealedColumnName(ENTRY_SEALED_COLUMNS, 'driver_passport_number');

export type DriverPool = {
  size: number;
  /** Keyed hash → the plain number (kept in Node, never written): callback bodies carry it. */
  plainByHash: Map<string, string>;
};

/**
 * Fills `pg_temp.bg_drivers` (n from 0 to size − 1) with the tenant's pooled drivers: an SA ID
 * number sealed for entry_logs and for incoming_requests with its keyed hash, or (one in
 * PASSPORT_EVERY) a passport number sealed for entry_logs with its hash. Plain numbers never reach
 * the database.
 */
export async function loadDriverPool(
  client: pg.ClientBase,
  sealer: ScaleSealer,
  tenantId: string,
  tenantNumber: number,
  size: number,
): Promise<DriverPool> {
  const random = seededRandom(tenantNumber * 7919);
  const seen = new Set<string>();
  const plainByHash = new Map<string, string>();
  const columns = {
    n: [] as number[],
    entryId: [] as (string | null)[],
    incomingId: [] as (string | null)[],
    idHash: [] as (string | null)[],
    entryPassport: [] as (string | null)[],
    passportHash: [] as (string | null)[],
  };
  for (let n = 0; n < size; n++) {
    const foreign = n % PASSPORT_EVERY === PASSPORT_EVERY - 1;
    let number = foreign ? passportNumber(random) : saIdNumber(random);
    while (seen.has(number)) number = foreign ? passportNumber(random) : saIdNumber(random);
    seen.add(number);
    columns.n.push(n);
    if (foreign) {
      const hash = await sealer.index(tenantId, PASSPORT_NUMBER, number);
      plainByHash.set(hash, number);
      columns.entryId.push(null);
      columns.incomingId.push(null);
      columns.idHash.push(null);
      columns.entryPassport.push(await sealer.seal(tenantId, ENTRY_PASSPORT, number));
      columns.passportHash.push(hash);
    } else {
      const hash = await sealer.index(tenantId, SA_ID_NUMBER, number);
      plainByHash.set(hash, number);
      columns.entryId.push(await sealer.seal(tenantId, ENTRY_ID_NUMBER, number));
      columns.incomingId.push(await sealer.seal(tenantId, INCOMING_ID_NUMBER, number));
      columns.idHash.push(hash);
      columns.entryPassport.push(null);
      columns.passportHash.push(null);
    }
  }
  await client.query(
    `create temporary table if not exists bg_drivers (n int primary key, entry_id text,
       incoming_id text, id_hash text, entry_passport text, passport_hash text);
     truncate pg_temp.bg_drivers`,
  );
  await client.query(
    `insert into pg_temp.bg_drivers
     select * from unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])`,
    [
      columns.n,
      columns.entryId,
      columns.incomingId,
      columns.idHash,
      columns.entryPassport,
      columns.passportHash,
    ],
  );
  await client.query('analyze pg_temp.bg_drivers');
  return { size, plainByHash };
}

const DELIVERY_BATCH = 5000;

/**
 * The completed feed entries' callbacks, delivered (those without one yet, so a top-up adds only
 * its own): each body is the event the office's completion writes, with the driver's plain ID
 * number inside, sealed with the tenant's data key as the outbox stores it.
 */
export async function insertSealedDeliveries(
  client: pg.ClientBase,
  sealer: ScaleSealer,
  tenantId: string,
  pool: DriverPool,
) {
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const { rows } = await client.query<{
      id: string;
      reference_number: string | null;
      plate_number: string;
      driver_name: string | null;
      driver_surname: string | null;
      driver_id_number_hash: string | null;
      driver_phone1: string | null;
      transport_name: string | null;
      received_at: Date;
      completed_at: Date;
    }>(
      `select r.id, r.reference_number, r.plate_number, r.driver_name, r.driver_surname,
         r.driver_id_number_hash, r.driver_phone1, r.transport_name, r.received_at, r.completed_at
       from incoming_requests r
       where r.tenant_id = $1 and r.completed_at is not null and r.id > $2
         and not exists (select 1 from webhook_deliveries d
                         where d.tenant_id = r.tenant_id and d.incoming_request_id = r.id)
       order by r.id limit $3`,
      [tenantId, after, DELIVERY_BATCH],
    );
    if (rows.length === 0) return;
    const ids: string[] = [];
    const bodies: string[] = [];
    const completed: Date[] = [];
    for (const row of rows) {
      const completedAt = row.completed_at.toISOString();
      const body = JSON.stringify({
        type: 'incoming-request.completed',
        timestamp: completedAt,
        data: {
          id: row.id,
          referenceNumber: row.reference_number,
          weighbridgeTicketId: null,
          plateNumber: row.plate_number,
          driverName: row.driver_name,
          driverSurname: row.driver_surname,
          driverIdNumber: row.driver_id_number_hash
            ? (pool.plainByHash.get(row.driver_id_number_hash) ?? null)
            : null,
          driverPhone: row.driver_phone1,
          transportName: row.transport_name,
          receivedAt: row.received_at.toISOString(),
          completedAt,
          trailerPlates: [],
          trailers: [],
          warnings: [],
        },
      });
      ids.push(row.id);
      bodies.push(await sealer.seal(tenantId, DELIVERY_BODY, body));
      completed.push(row.completed_at);
    }
    await client.query(
      `insert into webhook_deliveries (tenant_id, id, webhook_id, event_type, body,
         incoming_request_id, status, attempts, next_attempt_at, last_attempt_at,
         last_response_status, delivered_at, created_at)
       select $1, gen_random_uuid(), 'msg_' || replace(gen_random_uuid()::text, '-', ''),
         'incoming-request.completed', v.body, v.id, 'delivered', 1, v.completed_at,
         v.completed_at, 200, v.completed_at + interval '1 second', v.completed_at
       from unnest($2::uuid[], $3::text[], $4::timestamptz[]) as v(id, body, completed_at)`,
      [tenantId, ids, bodies, completed],
    );
    after = rows[rows.length - 1]!.id;
  }
}

/**
 * Data seeded before part f: the feed's plain ID numbers are replaced by pooled sealed ones with
 * their hashes (one UPDATE), and plain callback bodies are sealed as they are, in batches, as the
 * keys.seal-stored-data job would but one statement per batch. Returns the rows changed.
 */
export async function sealFeedInPlace(
  client: pg.ClientBase,
  sealer: ScaleSealer,
  tenantId: string,
  pool: DriverPool,
): Promise<number> {
  const feed = await client.query(
    `update incoming_requests r
       set driver_id_number = d.incoming_id, driver_id_number_hash = d.id_hash
     from pg_temp.bg_drivers d
     where r.tenant_id = $1 and r.driver_id_number is not null
       and (r.driver_id_number_hash is null or r.driver_id_number not like 'sv1.%')
       and d.n = (hashtext(r.id::text)::bigint & 2147483647) % $2`,
    [tenantId, pool.size],
  );
  let changed = feed.rowCount ?? 0;
  for (;;) {
    const { rows } = await client.query<{ id: string; body: string }>(
      `select id, body from webhook_deliveries
       where tenant_id = $1 and body not like 'sv1.%' limit $2`,
      [tenantId, DELIVERY_BATCH],
    );
    if (rows.length === 0) return changed;
    const sealed: string[] = [];
    for (const row of rows) sealed.push(await sealer.seal(tenantId, DELIVERY_BODY, row.body));
    await client.query(
      `update webhook_deliveries d set body = v.body
       from unnest($2::uuid[], $3::text[]) as v(id, body)
       where d.tenant_id = $1 and d.id = v.id`,
      [tenantId, rows.map((row) => row.id), sealed],
    );
    changed += rows.length;
  }
}

/**
 * What keys.seal-stored-data would find to do, asked as it asks: every `*_unsealed_tenants` and
 * `*_unmasked_*tenants` lookup in the catalog (the SECURITY DEFINER functions the job's walks
 * start from), so a table registered later is covered without being named here. Returns the
 * lookups that name a tenant.
 */
export async function lookupsWithWork(client: pg.ClientBase): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    `select p.proname as name from pg_proc p join pg_namespace n on n.oid = p.pronamespace
     where n.nspname = 'public'
       and (p.proname like '%\\_unsealed\\_tenants' or p.proname like '%\\_unmasked\\_%tenants')
     order by 1`,
  );
  if (rows.length === 0) throw new Error('the catalog lists no sealing lookups');
  const busy: string[] = [];
  for (const { name } of rows) {
    const found = await client.query(`select tenant_id from ${name}(1)`);
    if (found.rowCount) busy.push(name);
  }
  return busy;
}

/** Fails loudly when the sealing job would still have work: a bench must never measure it. */
export async function assertNothingToSeal(client: pg.ClientBase) {
  const busy = await lookupsWithWork(client);
  if (busy.length > 0)
    throw new Error(
      `the scale data still holds values keys.seal-stored-data would seal (${busy.join(', ')}): ` +
        'a bench would measure that job; seed again with `npm run seed:scale -- --reset`',
    );
}
