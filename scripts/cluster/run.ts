import { startCluster } from './cluster';

/**
 * `npm run cluster`: PostgreSQL 15 (or DATABASE_URL), three API instances and a worker of the real
 * server, HAProxy in front, s3rver (or S3_ENDPOINT). Runs until Ctrl-C. CLUSTER_PORT fixes the
 * frontend's port (default: any free one), CLUSTER_API_INSTANCES the number of API instances.
 */
const cluster = await startCluster({
  apiInstances: Number(process.env.CLUSTER_API_INSTANCES ?? 3),
  port: Number(process.env.CLUSTER_PORT ?? 5080),
});
process.stdout.write(
  `Boomgate cluster: ${cluster.url} (HAProxy runtime API: .tmp/cluster/haproxy.sock). Ctrl-C stops it.\n`,
);
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await cluster.stop();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
