import type { AddressInfo } from 'node:net';

import { buildApp } from '@/app';
import { loadEnv } from '@/config/env';
import { createModules } from '@/modules';
import { systemClock } from '@/platform/clock';
import { startInfrastructure } from '@/platform/infrastructure';
import { createStorage } from '@/platform/storage';
import { startSiteNodeRuntime } from '@/modules/site-node';
import { createLazyVisionEngine } from '@/modules/vision';
import { startJobWorker } from '@/worker';

const env = loadEnv();
const log = (message: string) => process.stdout.write(`${message}\n`);

const infrastructure = await startInfrastructure(env, log);
const { storage, label: storageLabel } = await createStorage(env);
const visionEngine = createLazyVisionEngine({
  threads: env.VISION_THREADS,
  taskTimeoutMs: env.VISION_TASK_TIMEOUT_MS,
  ...(env.aiProvider ? { ai: env.aiProvider } : {}),
});
const modules = createModules({
  env,
  database: infrastructure.database,
  clock: systemClock,
  sessionSecret: infrastructure.sessionSecret,
  encryptionKey: infrastructure.encryptionKey,
  rootKey: infrastructure.rootKey,
  storage,
  visionEngine,
});
let isShuttingDown = false;
const app = await buildApp({
  env,
  modules,
  database: infrastructure.database,
  isDraining: () => isShuttingDown,
});
// APP_ROLE gates the consumer, never the producer: every role may enqueue jobs.
const worker =
  env.APP_ROLE === 'api'
    ? undefined
    : await startJobWorker({
        env,
        modules,
        ownerUrl: infrastructure.ownerUrl,
        log: (level, message) => app.log[level](message),
      });

// Issue 28: a site node pulls master data from central and pushes its facts, beside the API.
const siteNode =
  env.siteNode && env.APP_ROLE !== 'api'
    ? startSiteNodeRuntime({
        config: env.siteNode,
        ownerUrl: infrastructure.ownerUrl,
        clock: systemClock,
        master: infrastructure.encryptionKey,
        objects: storage,
        log: (level, message) => app.log[level](message),
      })
    : undefined;

async function shutDown(signal: string) {
  if (isShuttingDown) return;
  isShuttingDown = true; // from now on new requests get 503 (app.ts)
  app.log.info({ signal }, 'shutting down: finishing in-flight requests');
  // Never hang: whatever is still running after the budget is abandoned (exit 1).
  setTimeout(() => {
    app.log.error('shutdown took too long; exiting');
    process.exit(1);
  }, env.SHUTDOWN_TIMEOUT_MS).unref();
  try {
    // A load balancer polling /api/health sees 503 and stops sending traffic before we stop
    // listening; then the listener closes and in-flight requests finish.
    const drainMs = env.APP_ROLE === 'worker' ? 0 : env.SHUTDOWN_DRAIN_MS;
    await new Promise((resolve) => setTimeout(resolve, drainMs));
    await app.close();
    await worker?.stop(); // running jobs finish; unfinished deliveries are swept up after restart
    await siteNode?.stop(); // a page being applied commits or rolls back whole
    await modules.webhooks.close();
    await visionEngine.close();
    await infrastructure.stop();
    process.exit(0);
  } catch (error) {
    app.log.error({ err: error }, 'unclean shutdown');
    process.exit(1);
  }
}
process.on('SIGINT', () => void shutDown('SIGINT'));
process.on('SIGTERM', () => void shutDown('SIGTERM'));

try {
  if (env.APP_ROLE === 'worker') {
    log('Boomgate worker is running (APP_ROLE=worker: no HTTP)');
  } else {
    // The pool's kept connections open before the first request waits on one (issue 27).
    await infrastructure.database.warm();
    const address = await app.listen({ port: env.PORT, host: env.HOST });
    app.log.info(
      `Boomgate is listening on ${address} (${infrastructure.databaseLabel}; images in ${storageLabel})`,
    );
    // The port actually bound: with PORT=0 the system chooses one, and the test harnesses
    // (scripts/lib/server-process.ts) read it from this line instead of racing for a free port.
    log(`Boomgate is running: http://localhost:${(app.server.address() as AddressInfo).port}`);
  }
} catch (error) {
  app.log.error({ err: error }, 'could not start');
  await worker?.stop();
  await siteNode?.stop();
  await infrastructure.stop();
  process.exit(1);
}
