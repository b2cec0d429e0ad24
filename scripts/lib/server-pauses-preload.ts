import { appendFileSync } from 'node:fs';

import { watchPauses } from './runtime-pauses';

/**
 * Loaded into a bench's server (`startServer({ preload })`, after tsx): every half second, one
 * JSON line `{ at, ...PauseFigures }` appended to BENCH_PAUSES_FILE, which the bench reads for the
 * stretch it measured. Nothing of it is in the product.
 */
const file = process.env.BENCH_PAUSES_FILE;
if (file) {
  const pauses = watchPauses();
  setInterval(() => {
    appendFileSync(file, `${JSON.stringify({ at: Date.now(), ...pauses.take() })}\n`);
  }, 500).unref();
}
