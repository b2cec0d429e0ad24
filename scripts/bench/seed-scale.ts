import { ensureScaleData } from '../lib/scale-database';

/**
 * `npm run seed:scale [-- --reset]`: 100 tenants, 1,000,000 entry logs in the largest, 50,000
 * approved vehicles, 500 users (issue 9) in ./data-bench (BENCH_DATA_DIR) or DATABASE_URL.
 * Running it again leaves existing scale data alone; --reset starts over.
 */
const started = performance.now();
await ensureScaleData({ reset: process.argv.includes('--reset') });
process.stdout.write(`seed:scale done in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
