/**
 * Rate limits: counters in PostgreSQL shared by every API process, counted and decided in one
 * statement per hit. Used by the sign-in throttle (auth), the upload and sign-up limits
 * (platform/rate-limit.ts) and the signed webhook's bad-signature limit. Owns: rate_limit_counters.
 */
import type { Clock } from '@/platform/clock';
import type { Db } from '@/platform/db';

import { createRateLimitStore } from './rate-limits.store';

export type { CounterRule, Hit, RateLimitStore } from './rate-limits.store';

export function createRateLimitsModule(deps: { db: Db; clock: Clock }) {
  return { store: createRateLimitStore(deps) };
}
