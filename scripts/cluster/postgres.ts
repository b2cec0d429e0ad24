import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';

import pg from 'pg';

/**
 * The cluster's PostgreSQL: the one DATABASE_URL names, or the machine's PostgreSQL 15 (Debian
 * package postgresql-15) in a cluster of its own, `15/boomgate-cluster`, created with
 * pg_createcluster and started with pg_ctlcluster as .ci/run starts `15/main`. Its own cluster,
 * not `main`: the harness restarts it (test:cluster) and sets role passwords, which must not
 * disturb anything else using the machine's PostgreSQL.
 */
export type ClusterPostgres = {
  /** The schema owner's URL of the cluster's database. */
  url: string;
  label: string;
  /** Restarts PostgreSQL (fast shutdown: connections are cut); null for DATABASE_URL. */
  restart: (() => Promise<void>) | null;
  /** Drops the database the harness created (not for DATABASE_URL). */
  dispose(): Promise<void>;
};

const VERSION = '15';
export const PG_CLUSTER_NAME = 'boomgate-cluster';
const PG_BIN = `/usr/lib/postgresql/${VERSION}/bin/postgres`;

const run = (command: string, args: string[]) =>
  execFileSync(command, args, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
const asPostgres = (sql: string, port: number) =>
  run('su', ['postgres', '-c', `psql -q -X -p ${port} -v ON_ERROR_STOP=1 -c "${sql}"`]);

async function waitForConnection(url: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.query('select 1');
      await client.end();
      return;
    } catch (error) {
      await client.end().catch(() => undefined);
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

export async function startClusterPostgres({
  port = Number(process.env.CLUSTER_PG_PORT ?? 5439),
  database = 'boomgate_cluster',
}: { port?: number; database?: string } = {}): Promise<ClusterPostgres> {
  if (process.env.DATABASE_URL) {
    const url = process.env.DATABASE_URL;
    await waitForConnection(url);
    return { url, label: 'DATABASE_URL', restart: null, dispose: async () => undefined };
  }
  if (!existsSync(PG_BIN)) {
    throw new Error(
      `PostgreSQL ${VERSION} is not installed (apt-get install -y postgresql-${VERSION}), and DATABASE_URL is not set`,
    );
  }
  const clusters = run('pg_lsclusters', ['--no-header']);
  const exists = clusters
    .split('\n')
    .some((line) => line.split(/\s+/)[0] === VERSION && line.split(/\s+/)[1] === PG_CLUSTER_NAME);
  if (!exists) {
    run('pg_createcluster', [
      VERSION,
      PG_CLUSTER_NAME,
      '--port',
      String(port),
      '--',
      '--auth-local=peer',
      '--auth-host=scram-sha-256',
    ]);
  }
  const status = run('pg_lsclusters', ['--no-header', VERSION, PG_CLUSTER_NAME]).trim();
  const clusterPort = Number(status.split(/\s+/)[2]);
  if (!status.includes('online')) run('pg_ctlcluster', [VERSION, PG_CLUSTER_NAME, 'start']);
  for (let tries = 0; ; tries++) {
    try {
      run('pg_isready', ['-q', '-h', '127.0.0.1', '-p', String(clusterPort)]);
      break;
    } catch (error) {
      if (tries > 60) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  // A fresh password each run (only this harness logs in over TCP) and a fresh database.
  const password = randomBytes(18).toString('base64url');
  asPostgres(`alter user postgres password '${password}'`, clusterPort);
  asPostgres(`drop database if exists ${database} with (force)`, clusterPort);
  asPostgres(`create database ${database}`, clusterPort);
  const url = `postgres://postgres:${password}@127.0.0.1:${clusterPort}/${database}`;
  await waitForConnection(url);
  return {
    url,
    label: `PostgreSQL ${VERSION} cluster ${PG_CLUSTER_NAME} on 127.0.0.1:${clusterPort}`,
    async restart() {
      run('pg_ctlcluster', [VERSION, PG_CLUSTER_NAME, 'restart', '-m', 'fast']);
      await waitForConnection(url);
    },
    async dispose() {
      asPostgres(`drop database if exists ${database} with (force)`, clusterPort);
    },
  };
}
