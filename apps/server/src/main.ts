import { buildApp } from '@/app';
import { loadEnv } from '@/config/env';
import { createModules } from '@/modules';
import { systemClock } from '@/platform/clock';
import { startInfrastructure } from '@/platform/infrastructure';
import { createStorage } from '@/platform/storage';

const env = loadEnv();
const log = (message: string) => process.stdout.write(`${message}\n`);

const infrastructure = await startInfrastructure(env, log);
const { storage, label: storageLabel } = await createStorage(env);
const modules = createModules({
  env,
  database: infrastructure.database,
  clock: systemClock,
  sessionSecret: infrastructure.sessionSecret,
  storage,
});
const app = await buildApp({ env, modules, database: infrastructure.database });

let isShuttingDown = false;
async function shutDown(signal: string) {
  if (isShuttingDown) return;
  isShuttingDown = true;
  app.log.info({ signal }, 'shutting down: finishing in-flight requests');
  try {
    await app.close(); // new requests get 503 while in-flight ones finish
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
  const address = await app.listen({ port: env.PORT, host: env.HOST });
  app.log.info(
    `Boomgate is listening on ${address} (${infrastructure.databaseLabel}; images in ${storageLabel})`,
  );
  log(`Boomgate is running: http://localhost:${env.PORT}`);
} catch (error) {
  app.log.error({ err: error }, 'could not start');
  await infrastructure.stop();
  process.exit(1);
}
