import { writeBenchResult } from '../lib/bench-result';
import { ensureScaleData } from '../lib/scale-database';

/**
 * `npm run seed:scale [-- --reset] [-- --entries N]`: 100 tenants, 1,000,000 entry logs in the
 * largest, 50,000 approved vehicles, 500 users (issue 9) in ./data-bench (BENCH_DATA_DIR) or
 * DATABASE_URL. `--entries 10000000` (or SCALE_ENTRIES=10000000) gives the large tenant ten times
 * the entries (issue 27), in ./data-bench-10000000 unless BENCH_DATA_DIR says otherwise; the rows
 * are generated inside PostgreSQL (generate_series), so 10M takes minutes, not hours.
 * Running it again leaves data that matches the plan alone, tops up or re-seeds data from an older
 * plan; --reset starts over. `--result-file F`: what it did and how long it took, for `npm run bench`.
 */
const started = performance.now();
const outcome = await ensureScaleData({ reset: process.argv.includes('--reset') });
const seconds = (performance.now() - started) / 1000;
writeBenchResult({
  bench: 'seed:scale',
  measurements: [{ id: 'seed', label: `seed:scale (${outcome})`, valueMs: seconds * 1000 }],
  notes: [outcome],
});
process.stdout.write(`seed:scale ${outcome} in ${seconds.toFixed(1)} s\n`);
