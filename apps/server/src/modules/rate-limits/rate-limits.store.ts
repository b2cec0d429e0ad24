import { type SQL, sql } from 'drizzle-orm';

import type { Clock } from '@/platform/clock';
import type { Db } from '@/platform/db';

/**
 * How a key is limited: `limit` hits a window are let through, and the hit that reaches the limit
 * blocks the key. Without `backoff` the block lasts until the window ends (a plain rate limit);
 * with it, the block lasts `firstMs`, doubling with every further hit counted in the window, up
 * to `maxMs` (the sign-in throttle: OWASP's growing delays rather than a permanent lockout).
 */
export type CounterRule = {
  limit: number;
  windowMs: number;
  backoff?: { firstMs: number; maxMs: number };
};

export type Hit = {
  /** False when the key was blocked: this hit was refused and not counted. */
  allowed: boolean;
  /** Hits counted in the current window, this one included when allowed. */
  hits: number;
  /** Seconds until the key may be hit again (0 when it may now). */
  retryAfterSeconds: number;
  /** Milliseconds until the count starts again (the window ends) or the block ends. */
  resetMs: number;
  /** The block the key is under after this hit (set by this hit when it was allowed), or null. */
  blockedUntil: Date | null;
};

export type RateLimitStore = ReturnType<typeof createRateLimitStore>;

type Row = {
  hits: number;
  window_started_at: string | Date;
  blocked_until: string | Date | null;
  refused: boolean;
};

const ms = (value: number) => sql`(${value}::double precision * interval '1 millisecond')`;
const toDate = (value: string | Date) => (value instanceof Date ? value : new Date(value));

/** Expired rows are deleted on write, once every this many hits of a process. */
const CLEANUP_EVERY_HITS = 500;

/**
 * Rate-limit counters in PostgreSQL, so the limits hold across concurrent requests and across
 * API processes. A hit counts and decides in one statement: `insert … on conflict do update`
 * takes the row lock, so concurrent hits of one key are serialised by the database and exactly
 * `limit` of them get through, whatever their number. Time comes from the app's clock.
 */
export function createRateLimitStore({ db, clock }: { db: Db; clock: Clock }) {
  let hitsSinceCleanup = 0;

  async function deleteExpired(now = clock.now()) {
    const result = await db.execute(
      sql`delete from rate_limit_counters where expires_at < ${now.toISOString()}::timestamptz`,
    );
    return result.rowCount ?? 0;
  }

  return {
    /** Counts one hit of `key` unless it is blocked, and says whether it may go ahead. */
    async hit(key: string, rule: CounterRule): Promise<Hit> {
      const now = clock.now();
      const at = sql`${now.toISOString()}::timestamptz`;
      const limit = sql`${rule.limit}::int`;
      // Reading the old row (c.*) everywhere: Postgres evaluates every SET expression against it.
      const isBlocked = sql`(c.blocked_until is not null and c.blocked_until > ${at})`;
      const isWindowOver = sql`(c.window_started_at + ${ms(rule.windowMs)} <= ${at})`;
      const hits = sql`(case when ${isBlocked} then c.hits when ${isWindowOver} then 1 else c.hits + 1 end)`;
      const windowStart = sql`(case when not ${isBlocked} and ${isWindowOver} then ${at} else c.window_started_at end)`;
      const blockEnd = (count: SQL, start: SQL) =>
        rule.backoff
          ? sql`(${at} + ${ms(rule.backoff.firstMs)} * power(2, least(${count} - ${limit}, 30)))`
          : sql`(${start} + ${ms(rule.windowMs)})`;
      const capped = (end: SQL) =>
        rule.backoff ? sql`least(${end}, ${at} + ${ms(rule.backoff.maxMs)})` : end;
      const blockedUntil = sql`(case when ${isBlocked} then c.blocked_until when ${hits} >= ${limit} then ${capped(blockEnd(hits, windowStart))} else null end)`;
      const firstBlockedUntil = sql`(case when 1 >= ${limit} then ${capped(blockEnd(sql`1`, at))} else null end)`;

      const result = await db.execute<Row>(sql`
        insert into rate_limit_counters as c
          (key, hits, window_started_at, blocked_until, refused, expires_at)
        values (${key}, 1, ${at}, ${firstBlockedUntil}, false,
                greatest(${at} + ${ms(rule.windowMs)}, ${firstBlockedUntil}))
        on conflict (key) do update set
          hits = ${hits},
          window_started_at = ${windowStart},
          blocked_until = ${blockedUntil},
          refused = ${isBlocked},
          expires_at = greatest(${windowStart} + ${ms(rule.windowMs)}, ${blockedUntil})
        returning hits, window_started_at, blocked_until, refused`);
      const row = result.rows[0];
      if (!row) throw new Error('rate_limit_counters: the upsert returned no row');

      hitsSinceCleanup += 1;
      if (hitsSinceCleanup >= CLEANUP_EVERY_HITS) {
        hitsSinceCleanup = 0;
        await deleteExpired(now);
      }

      const blockedUntilAt = row.blocked_until ? toDate(row.blocked_until) : null;
      const windowEnd = toDate(row.window_started_at).getTime() + rule.windowMs;
      const blockedMs = blockedUntilAt ? blockedUntilAt.getTime() - now.getTime() : 0;
      return {
        allowed: !row.refused,
        hits: row.hits,
        retryAfterSeconds: row.refused ? Math.max(1, Math.ceil(blockedMs / 1000)) : 0,
        resetMs: Math.max(0, blockedMs, windowEnd - now.getTime()),
        blockedUntil: blockedUntilAt,
      };
    },

    /**
     * Takes back one counted hit (an attempt that was counted before it was judged, and then
     * succeeded), lifting the block when the count falls under the limit again, or when the block
     * is the one this very hit set (`hit`): an allowed hit found no block in force, so a right
     * password after a served lock does not start a new one. A block set since by another hit
     * (a different `blocked_until`) stays.
     */
    async refund(key: string, rule: Pick<CounterRule, 'limit'>, hit?: Pick<Hit, 'blockedUntil'>) {
      const setByThisHit = hit?.blockedUntil
        ? sql`blocked_until = ${hit.blockedUntil.toISOString()}::timestamptz`
        : sql`false`;
      await db.execute(sql`
        update rate_limit_counters set
          hits = greatest(hits - 1, 0),
          blocked_until = case
            when hits - 1 < ${rule.limit}::int or ${setByThisHit} then null
            else blocked_until end
        where key = ${key}`);
    },

    /** Forgets a key (a right password clears the account's failures). */
    async clear(key: string) {
      await db.execute(sql`delete from rate_limit_counters where key = ${key}`);
    },

    /** Deletes the rows whose window and block are over; also run on write now and then. */
    deleteExpired,
  };
}
