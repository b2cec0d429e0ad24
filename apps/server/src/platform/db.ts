import { type Logger, sql } from 'drizzle-orm';
import { type NodePgDatabase, drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';

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

export type Database = {
  db: Db;
  pool: pg.Pool;
  /**
   * Runs `work` in one transaction with the tenant set by `set_config(…, true)`: the setting dies
   * with the transaction, so a pooled connection never carries one tenant into the next request.
   */
  withTenant<T>(tenantId: string, work: (tx: Tx) => Promise<T>): Promise<T>;
  /** A transaction with no tenant: row-level security then shows no tenant rows at all. */
  withoutTenant<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  close(): Promise<void>;
};

export function createDatabase({
  url,
  poolMax = 20,
  statementTimeoutMs = 15_000,
  onPoolError = () => undefined,
  logger,
}: {
  url: string;
  poolMax?: number;
  statementTimeoutMs?: number;
  onPoolError?: (error: Error) => void;
  /** Sees every statement Drizzle sends (the query-plan test explains them). */
  logger?: Logger;
}): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolMax,
    connectionTimeoutMillis: 5_000,
    statement_timeout: statementTimeoutMs,
    idle_in_transaction_session_timeout: statementTimeoutMs,
    application_name: 'boomgate',
  });
  // A dropped connection (database restart or crash) must not crash the process: the pool
  // reports idle clients, and a checked-out client (mid-transaction) reports on itself, where an
  // unhandled 'error' event would kill the process. Its query then fails (503) and the pool
  // discards it on release (REL-06).
  pool.on('error', onPoolError);
  pool.on('connect', (client) => client.on('error', onPoolError));
  const db = drizzle({ client: pool, casing: 'snake_case', ...(logger ? { logger } : {}) });

  return {
    db,
    pool,
    withTenant: (tenantId, work) =>
      db.transaction(async (tx) => {
        await tx.execute(sql`select set_config('app.tenant_id', ${tenantId}, true)`);
        return work(tx);
      }),
    withoutTenant: (work) => db.transaction(work),
    close: () => pool.end(),
  };
}
