import type { Logger } from 'drizzle-orm';
import {
  type NodePgDatabase,
  NodePgSession,
  NodePgTransaction,
  drizzle,
} from 'drizzle-orm/node-postgres';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';

import { registerConnection } from './compiled-select';

export type Db = NodePgDatabase;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** The pool or an open transaction. */
export type DbExecutor = Db | Tx;

/** A write that returns no row is a bug, not a business case. */
export function takeOne<T>(rows: T[]): T {
  const [row] = rows;
  if (row === undefined) throw new Error('Expected one row, got none');
  return row;
}

const TENANT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type Database = {
  db: Db;
  pool: pg.Pool;
  /**
   * Runs `work` in one transaction with the tenant set by `set_config(…, true)`: the setting dies
   * with the transaction, so a pooled connection never carries one tenant into the next request.
   */
  withTenant<T>(tenantId: string, work: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * Runs each of `reads` in a read-only transaction of the tenant, side by side on their own
   * pooled connections when the pool has them free, all on one snapshot (the first read's
   * transaction exports it, the others import it): the answers agree as if read in one
   * transaction, in about the time of the slowest read. A read that finds no free connection
   * runs in the first one's transaction, so this never waits on the pool while holding a
   * connection. For a report's independent queries (issue 23).
   */
  readTogether<T extends readonly unknown[]>(
    tenantId: string,
    reads: { [K in keyof T]: (tx: Tx) => Promise<T[K]> },
  ): Promise<T>;
  /**
   * `withTenant` on a connection of a small side pool that request transactions never hold: for
   * work a request's transaction waits on (the key ring loading a tenant's keys, issue 26).
   * Waiting on the main pool while holding one of its connections deadlocks once every
   * connection is held by a request doing the same (ten concurrent completions did).
   */
  withTenantAside<T>(tenantId: string, work: (tx: Tx) => Promise<T>): Promise<T>;
  /** A transaction with no tenant: row-level security then shows no tenant rows at all. */
  withoutTenant<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  /** Opens the pool's kept connections now (poolMin), before requests need them; never throws. */
  warm(): Promise<void>;
  close(): Promise<void>;
};

/** Connections of the side pool (`withTenantAside`): key loads are rare and short. */
const SIDE_POOL_MAX = 2;

export function createDatabase({
  url,
  poolMax = 20,
  poolMin = 0,
  statementTimeoutMs = 15_000,
  onPoolError = () => undefined,
  logger,
}: {
  url: string;
  poolMax?: number;
  /**
   * Connections the pool keeps open however idle (issue 27). A connection opened under load costs
   * the requests queued behind it tens of milliseconds (a backend started, SCRAM, its catalog
   * and row-level security caches filled on first use): in bench:scale each such opening was a
   * cluster of 10 to 15 slow requests at once, the p99 of the lists.
   */
  poolMin?: number;
  statementTimeoutMs?: number;
  onPoolError?: (error: Error) => void;
  /** Sees every statement Drizzle sends (the query-plan test explains them). */
  logger?: Logger;
}): Database {
  const poolOptions = (max: number, min = 0): pg.PoolConfig => ({
    connectionString: url,
    max,
    min: Math.min(min, max),
    connectionTimeoutMillis: 5_000,
    // pg's default closes a connection idle for 10 s, so a load that rises and falls keeps opening
    // new backends, whose first statements pay PostgreSQL's cold catalog caches and RLS policy
    // loading (the scale bench saw p99 spikes at such openings with p95 near 10 ms). A minute keeps
    // a burst's connections for the next one; the pool still shrinks when the site is quiet.
    idleTimeoutMillis: 60_000,
    statement_timeout: statementTimeoutMs,
    idle_in_transaction_session_timeout: statementTimeoutMs,
    application_name: 'boomgate',
  });
  const pool = new pg.Pool(poolOptions(poolMax, poolMin));
  /** Opened on first use: most processes never load keys outside a warm cache. */
  let sidePool: pg.Pool | undefined;
  const asidePool = () => {
    if (!sidePool) {
      sidePool = new pg.Pool(poolOptions(SIDE_POOL_MAX));
      sidePool.on('error', onPoolError);
      sidePool.on('connect', (client) => client.on('error', onPoolError));
    }
    return sidePool;
  };
  // A dropped connection (database restart or crash) must not crash the process: the pool
  // reports idle clients, and a checked-out client (mid-transaction) reports on itself, where an
  // unhandled 'error' event would kill the process. Its query then fails (503) and the pool
  // discards it on release (REL-06).
  pool.on('error', onPoolError);
  pool.on('connect', (client) => client.on('error', onPoolError));
  const db = drizzle({ client: pool, casing: 'snake_case', ...(logger ? { logger } : {}) });
  registerConnection(db, { client: pool, logger });
  const dialect = new PgDialect({ casing: 'snake_case' });

  const setTenant = (tenantId: string) => {
    if (!TENANT_ID.test(tenantId)) throw new TypeError('tenant id must be a UUID');
    return `select set_config('app.tenant_id', '${tenantId.toLowerCase()}', true)`;
  };
  /** Connections the pool can hand out now without anyone waiting. */
  const freeConnections = () =>
    Math.max(0, pool.idleCount + (poolMax - pool.totalCount) - pool.waitingCount);
  async function exportSnapshot(client: pg.PoolClient): Promise<string> {
    const { rows } = await client.query<{ id: string }>('select pg_export_snapshot() as id');
    const id = rows[0]?.id ?? '';
    if (!/^[0-9A-F-]+$/i.test(id)) throw new Error(`unexpected snapshot id ${id}`);
    return id;
  }

  /**
   * `work` in one transaction begun by `begin` (one simple-protocol message) on a pooled
   * connection, committed after it (rolled back if it throws), the connection released after.
   */
  async function onConnection<T>(
    begin: string,
    work: (tx: Tx, client: pg.PoolClient) => Promise<T>,
    from: pg.Pool = pool,
  ): Promise<T> {
    const client = await from.connect();
    // A connection whose BEGIN or ROLLBACK failed may be mid-transaction: never pooled again.
    let isBroken = false;
    try {
      try {
        await client.query(begin);
      } catch (error) {
        isBroken = true;
        throw error;
      }
      const session = new NodePgSession(client, dialect, undefined, logger ? { logger } : {});
      const tx: Tx = new NodePgTransaction(dialect, session, undefined);
      registerConnection(tx, { client, logger });
      try {
        const result = await work(tx, client);
        // PostgreSQL answers COMMIT of a failed transaction with ROLLBACK, not an error: work
        // that caught a database error without a savepoint must not look like it was saved.
        const committed = await client.query('commit');
        if (committed.command === 'ROLLBACK')
          throw new Error('The transaction was rolled back: a statement in it had failed.');
        return result;
      } catch (error) {
        // After a failed COMMIT PostgreSQL has already ended the transaction; ROLLBACK then
        // only warns.
        await client.query('rollback').catch(() => {
          isBroken = true;
        });
        throw error;
      }
    } finally {
      client.release(isBroken);
    }
  }

  return {
    db,
    pool,
    /**
     * Drizzle's transaction() sends BEGIN, then we would send set_config: two round trips before
     * any work, on every request. Here both go in one simple-protocol message (a PostgreSQL round
     * trip costs ~0.16 ms of syscalls on the 2-core VM: a third of a read route's server time at
     * scale). The tenant id is interpolated, so it must be a UUID: it comes from the session or
     * a checked header, never as free text. The transaction object is Drizzle's own (savepoints
     * for nested transaction() calls, rollback()), over one pooled connection.
     */
    async withTenant(tenantId, work) {
      return onConnection(`begin; ${setTenant(tenantId)}`, (tx) => work(tx));
    },
    async readTogether(tenantId, reads) {
      const [first, ...rest] = reads;
      if (!first) return [] as never;
      const begin = 'begin isolation level repeatable read read only';
      return onConnection(`${begin}; ${setTenant(tenantId)}`, async (leadTx, lead) => {
        // Only connections free now: waiting for one while holding this one could starve the
        // pool under load. A read with no free connection runs on the lead's (pg queues it).
        let free = rest.length > 0 ? freeConnections() : 0;
        const snapshot = free > 0 ? await exportSnapshot(lead) : null;
        // Every read settles before this answers: a failure leaves nothing running.
        const settled = await Promise.allSettled([
          first(leadTx),
          ...rest.map((read) =>
            snapshot !== null && free-- > 0
              ? onConnection(
                  `${begin}; set transaction snapshot '${snapshot}'; ${setTenant(tenantId)}`,
                  (tx) => read(tx),
                )
              : read(leadTx),
          ),
        ]);
        const failed = settled.find((result) => result.status === 'rejected');
        if (failed) throw failed.reason;
        return settled.map((result) => (result as PromiseFulfilledResult<unknown>).value) as never;
      });
    },
    async withTenantAside(tenantId, work) {
      return onConnection(`begin; ${setTenant(tenantId)}`, (tx) => work(tx), asidePool());
    },
    withoutTenant: (work) => db.transaction(work),
    async warm() {
      const wanted = Math.min(poolMin, poolMax) - pool.totalCount;
      if (wanted <= 0) return;
      // All checked out at once, so the pool opens new ones rather than reusing one. Best
      // effort: a connection that fails to open (the server full, a timeout) is left for a
      // request to open later, and every one that opened goes back to the pool (a client never
      // released would keep pool.end(), and so shutdown, waiting for ever).
      const opened = await Promise.allSettled(Array.from({ length: wanted }, () => pool.connect()));
      await Promise.all(
        opened.map(async (result) => {
          if (result.status === 'rejected') return;
          const client = result.value;
          const failed = await client.query('select 1').then(
            () => undefined,
            (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
          );
          client.release(failed);
        }),
      );
    },
    close: async () => {
      await Promise.all([pool.end(), sidePool?.end()]);
    },
  };
}
