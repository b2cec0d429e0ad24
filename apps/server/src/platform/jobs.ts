import { sql } from 'drizzle-orm';
import {
  Logger,
  type LogLevel,
  type Runner,
  type Task,
  type TaskList,
  parseCronItems,
  run,
  runMigrations,
  runOnce,
} from 'graphile-worker';
import pg from 'pg';
import type { z } from 'zod';

import type { DbExecutor } from './db';
import { holdsPersonalText } from './personal-text';

/**
 * A background job: a name (`<module>.<verb>`), a payload schema (parsed again when the worker
 * picks the job up) and a handler. The queue is graphile-worker on the same PostgreSQL.
 */
export type Job<Payload> = {
  name: `${string}.${string}`;
  payload: z.ZodType<Payload>;
  /** The queue's own retries, for handler crashes; business retries are the module's concern. */
  maxAttempts: number;
  run(payload: Payload, context: JobContext): Promise<void>;
};
export type JobContext = { attempt: number; isLastAttempt: boolean; log: JobLog };
// `never` in the argument position makes any Job<P> assignable to the list type.
export type AnyJob = Omit<Job<unknown>, 'run' | 'payload'> & {
  payload: z.ZodType;
  run(payload: never, context: JobContext): Promise<void>;
};

export const defineJob = <Payload>(job: Job<Payload>) => job;

/** A periodic job: a graphile-worker crontab line's schedule, e.g. `* * * * *`. */
export type ScheduledJob = { job: AnyJob; schedule: string };

export type EnqueueOptions = {
  runAt?: Date;
  /**
   * At most one waiting job per key: enqueueing again replaces the waiting one (a job that
   * already started is left to finish and a new one is added).
   */
  jobKey?: string;
};

/**
 * Adds a job inside the caller's transaction, so it commits or rolls back with the write that
 * caused it; returns the job's id. The API role may only add jobs (see prepareJobQueue).
 */
export async function enqueueJob<Payload>(
  tx: DbExecutor,
  job: Pick<Job<Payload>, 'name' | 'maxAttempts'>,
  payload: Payload,
  { runAt, jobKey }: EnqueueOptions = {},
): Promise<string> {
  // Issue 26: job payloads are stored in the clear in graphile_worker's tables; a job carries
  // ids (the handler reads the sealed row), never an ID or passport number.
  if (holdsPersonalText(payload))
    throw new Error(`A ${job.name} job's payload holds an ID or passport number: pass ids instead`);
  const result = await tx.execute<{
    id: string;
  }>(sql`select id::text as id from graphile_worker.add_job(
    identifier => ${job.name}::text,
    payload => ${JSON.stringify(payload)}::json,
    run_at => ${runAt?.toISOString() ?? null}::timestamptz,
    max_attempts => ${job.maxAttempts}::int,
    job_key => ${jobKey ?? null}::text
  )`);
  return result.rows[0]?.id ?? '';
}

/**
 * Installs or upgrades the queue's schema (graphile-worker's own migrations) as the schema owner,
 * then grants the API role exactly what `add_job` needs and nothing that runs or reads jobs:
 * add_job/add_jobs are plain (not SECURITY DEFINER) functions that insert the task and queue
 * names if new, clear the key of a started job, and insert or replace the job row.
 */
export async function prepareJobQueue(ownerUrl: string, appRole: string): Promise<void> {
  const pool = withErrorHandlers(
    new pg.Pool({ connectionString: ownerUrl, max: 1 }),
    () => undefined,
  );
  try {
    await runMigrations({ pgPool: pool, logger: silentLogger });
    const tables = ['_private_tasks', '_private_job_queues', '_private_jobs'];
    // graphile-worker forces row-level security on its tables with no policy (owner only), so
    // the API role gets a policy for exactly the rows add_job touches: all of them, since jobs
    // are not tenant data; the grants below still allow no DELETE and no job locking functions.
    const policies = tables.map(
      (table) => `drop policy if exists boomgate_app_enqueue on graphile_worker.${table};
        create policy boomgate_app_enqueue on graphile_worker.${table} for all to ${appRole}
          using (true) with check (true);`,
    );
    await pool.query(`begin;
      grant usage on schema graphile_worker to ${appRole};
      grant execute on function graphile_worker.add_job(text, json, text, timestamptz, integer, text, integer, text[], text) to ${appRole};
      grant execute on function graphile_worker.add_jobs(graphile_worker.job_spec[], boolean) to ${appRole};
      grant select, insert on graphile_worker._private_tasks, graphile_worker._private_job_queues to ${appRole};
      grant select, insert, update on graphile_worker._private_jobs to ${appRole};
      ${policies.join('\n')}
      commit;`);
  } finally {
    await pool.end();
  }
}

const silentLogger = new Logger(() => () => undefined);

export type JobLog = (level: 'error' | 'warn' | 'info' | 'debug', message: string) => void;

function toLogger(log: JobLog): Logger {
  const levels: Record<LogLevel, Parameters<JobLog>[0]> = {
    error: 'error',
    warning: 'warn',
    info: 'info',
    debug: 'debug',
  };
  return new Logger((scope) => (level, message) => {
    const where = scope.taskIdentifier ? ` [${scope.taskIdentifier}#${scope.jobId ?? '?'}]` : '';
    log(levels[level], `jobs${where}: ${message}`);
  });
}

function toTaskList(jobs: readonly AnyJob[], log: JobLog): TaskList {
  const tasks: TaskList = {};
  for (const job of jobs) {
    const task: Task = async (rawPayload, helpers) => {
      const payload = job.payload.parse(rawPayload) as never;
      const attempt = helpers.job.attempts; // already counts this attempt
      await job.run(payload, { attempt, isLastAttempt: attempt >= helpers.job.max_attempts, log });
    };
    tasks[job.name] = task;
  }
  return tasks;
}

export type Worker = { stop(): Promise<void> };

/**
 * Runs the queue's consumer. It connects as the schema owner (it must lock and delete job rows);
 * handlers do their own work through the API role's pool, one tenant per transaction. Signals are
 * left to main.ts, which stops the worker before closing the database.
 */
export async function startWorker({
  ownerUrl,
  jobs,
  schedules = [],
  concurrency,
  log,
}: {
  ownerUrl: string;
  jobs: readonly AnyJob[];
  schedules?: readonly ScheduledJob[];
  concurrency: number;
  log: JobLog;
}): Promise<Worker> {
  const pool = withErrorHandlers(
    new pg.Pool({ connectionString: ownerUrl, max: concurrency + 2 }),
    (error) => log('warn', `jobs: database connection lost: ${error.message}`),
  );
  let runner: Runner;
  try {
    runner = await run({
      pgPool: pool,
      taskList: toTaskList(jobs, log),
      // Cron items rather than crontab text: the crontab grammar does not allow dots in job names.
      parsedCronItems: parseCronItems(
        schedules.map(({ job, schedule }) => ({
          task: job.name,
          match: schedule,
          identifier: job.name,
        })),
      ),
      concurrency,
      noHandleSignals: true,
      pollInterval: 2000,
      logger: toLogger(log),
    });
  } catch (error) {
    await pool.end();
    throw error;
  }
  return {
    async stop() {
      await runner.stop();
      await pool.end();
    },
  };
}

/** Runs every job that is due now, then returns: for tests and one-off operator runs. */
export async function runDueJobsOnce({
  ownerUrl,
  jobs,
  log = () => undefined,
}: {
  ownerUrl: string;
  jobs: readonly AnyJob[];
  log?: JobLog;
}): Promise<void> {
  const pool = withErrorHandlers(
    new pg.Pool({ connectionString: ownerUrl, max: 2 }),
    () => undefined,
  );
  try {
    await runOnce({ pgPool: pool, taskList: toTaskList(jobs, log), logger: toLogger(log) });
  } finally {
    await pool.end();
  }
}

/**
 * A connection that dies while idle (a database restart) emits 'error' on the pool, one that
 * dies while checked out on the client: without handlers either kills the process.
 */
function withErrorHandlers(pool: pg.Pool, onError: (error: Error) => void): pg.Pool {
  pool.on('error', onError);
  pool.on('connect', (client) => client.on('error', onError));
  return pool;
}
