import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { buildApp } from '@/app';
import { loadEnv } from '@/config/env';
import { createModules } from '@/modules';
import { createLazyVisionEngine } from '@/modules/vision';
import { systemClock } from '@/platform/clock';
import { startInfrastructure } from '@/platform/infrastructure';
import { createStorage } from '@/platform/storage';

/**
 * The real app in this process, as production runs it (NODE_ENV=production), on an embedded
 * PostgreSQL and a storage folder in a temporary directory: for the benches that measure the app
 * itself (lists, barrier, offline replay) rather than a server process. `stop()` closes it and
 * removes the directory.
 */
export async function startInProcessApp(name: string, extraEnv: Record<string, string> = {}) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `boomgate-bench-${name}-`));
  const env = loadEnv({
    ...process.env,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    ...extraEnv,
  });
  const infrastructure = await startInfrastructure(env, () => {});
  const { storage } = await createStorage(env);
  const modules = createModules({
    env,
    database: infrastructure.database,
    clock: systemClock,
    sessionSecret: infrastructure.sessionSecret,
    encryptionKey: infrastructure.encryptionKey,
    rootKey: infrastructure.rootKey,
    storage,
    visionEngine: createLazyVisionEngine({ threads: 1 }),
  });
  const app = await buildApp({ env, modules, database: infrastructure.database });
  return {
    env,
    infrastructure,
    modules,
    app,
    stop: async () => {
      await app.close();
      await infrastructure.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
