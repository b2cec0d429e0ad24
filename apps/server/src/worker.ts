import type { Env } from '@/config/env';
import type { Modules } from '@/modules';
import { type JobLog, type Worker, startWorker } from '@/platform/jobs';

/** Every module's jobs and schedules, handed to the queue in one place. */
export function jobsOf(modules: Modules) {
  return {
    jobs: [
      ...modules.webhooks.jobs,
      ...modules.approvedVehicles.jobs,
      ...modules.drivers.jobs,
      ...modules.privacy.jobs,
      ...modules.induction.jobs,
      ...modules.captures.jobs,
      ...modules.alerts.jobs,
      ...modules.barriers.jobs,
      ...modules.anpr.jobs,
      ...modules.reports.jobs,
      ...modules.keys.jobs,
      ...modules.siteNode.jobs,
      ...modules.siteSync.jobs,
    ],
    schedules: [
      ...modules.webhooks.schedules,
      ...modules.approvedVehicles.schedules,
      ...modules.drivers.schedules,
      ...modules.privacy.schedules,
      ...modules.induction.schedules,
      ...modules.captures.schedules,
      ...modules.alerts.schedules,
      ...modules.barriers.schedules,
      ...modules.anpr.schedules,
      ...modules.reports.schedules,
      ...modules.keys.schedules,
      ...modules.siteNode.schedules,
      ...modules.siteSync.schedules,
    ],
  };
}

/**
 * Starts consuming jobs (APP_ROLE worker or all). Enqueueing works in every role. Each start
 * queues the sealing of objects stored unsealed (issue 26's migration; a no-op walk once done).
 */
export async function startJobWorker({
  env,
  modules,
  ownerUrl,
  log,
}: {
  env: Env;
  modules: Modules;
  ownerUrl: string;
  log: JobLog;
}): Promise<Worker> {
  await modules.keys.enqueueStartup();
  return startWorker({ ownerUrl, concurrency: env.WORKER_CONCURRENCY, log, ...jobsOf(modules) });
}
