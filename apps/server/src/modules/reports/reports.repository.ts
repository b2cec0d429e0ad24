import { type SQL, sql } from 'drizzle-orm';

import type { DbExecutor } from '@/platform/db';

/**
 * The report's window: instants bounding the site days (`from` inclusive, `until` exclusive),
 * the timezone that cuts them, and the sites counted (null: every site of the tenant).
 */
export type ReportWindow = {
  from: Date;
  until: Date;
  timeZone: string;
  sites: readonly string[] | null;
};

const siteFilter = (sites: readonly string[] | null): SQL =>
  sites === null ? sql`` : sql` and site_id = any(${`{${sites.join(',')}}`}::uuid[])`;

const n = (value: unknown) => Number(value ?? 0);

/** Turnaround bands' upper edges in minutes: under 30, 30–60, 1–2 h, 2–4 h, 4–8 h, 8 h and over. */
export const TURNAROUND_BAND_EDGES = [30, 60, 120, 240, 480] as const;
const minutesOrNull = (value: unknown) =>
  value === null || value === undefined ? null : Math.round(Number(value) * 10) / 10;

/**
 * Issue 23: everything reads the hourly summary tables (report_hourly_*, kept by triggers,
 * migration 0055), except turnaround percentiles, which are exact over the range's closed visits
 * through visits_closed_by_site_idx (an index-only scan of (site, entered_at, exited_at, company)).
 */
export function createReportsRepository() {
  return {
    /**
     * Entries and visit moves per site-local day of the window, per hour of the site's day (summed
     * over the days) and per hour of the window's last day (`lastDay`, YYYY-MM-DD): a few hundred
     * rows for a year. The buckets are summed in the database, each UTC hour converted to the
     * site's time once: a year is ~9,000 buckets, and sending each to Node to be summed there
     * cost more than the whole rest of the report (docs/benchmarks.md, "Reports: where the time
     * went").
     */
    async dayAndHourCounts(tx: DbExecutor, tenantId: string, w: ReportWindow, lastDay: string) {
      const inWindow = sql`tenant_id = ${tenantId} and hour >= ${w.from.toISOString()}::timestamptz
            and hour < ${w.until.toISOString()}::timestamptz${siteFilter(w.sites)}`;
      const result = await tx.execute<Record<string, unknown>>(sql`
        with buckets as (
          select hour, total as entries, approved, face_verified, granted, corrected,
                 0 as arrivals, 0 as departures
          from report_hourly_entries where ${inWindow}
          union all
          select hour, 0, 0, 0, 0, 0, arrivals, departures
          from report_hourly_visits where ${inWindow}),
        local as (
          select hour at time zone ${w.timeZone} as at, entries, approved, face_verified, granted,
                 corrected, arrivals, departures
          from buckets),
        grouped as (
          select at::date as day, extract(hour from at)::int as hour,
                 at::date = ${lastDay}::date as is_last_day,
                 sum(entries) as entries, sum(approved) as approved,
                 sum(face_verified) as face_verified, sum(granted) as granted,
                 sum(corrected) as corrected, sum(arrivals) as arrivals,
                 sum(departures) as departures
          from local
          group by grouping sets ((1), (2, 3)))
        select day::text as day, hour, is_last_day, entries, approved, face_verified, granted,
               corrected, arrivals, departures
        from grouped`);
      const counts = (row: Record<string, unknown>) => ({
        entries: n(row.entries),
        approved: n(row.approved),
        faceVerified: n(row.face_verified),
        granted: n(row.granted),
        corrected: n(row.corrected),
        arrivals: n(row.arrivals),
        departures: n(row.departures),
      });
      type Counts = ReturnType<typeof counts>;
      const byDay: (Counts & { day: string })[] = [];
      const byHour: (Counts & { hour: number; isLastDay: boolean })[] = [];
      for (const row of result.rows) {
        if (typeof row.day === 'string') byDay.push({ day: row.day, ...counts(row) });
        else
          byHour.push({ hour: n(row.hour), isLastDay: row.is_last_day === true, ...counts(row) });
      }
      return { byDay, byHour };
    },

    async refusalReasons(tx: DbExecutor, tenantId: string, w: ReportWindow) {
      const result = await tx.execute<{ reason: string; count: string }>(sql`
        select reason, sum(refused) as count from report_hourly_refusals
        where tenant_id = ${tenantId} and hour >= ${w.from.toISOString()}::timestamptz
          and hour < ${w.until.toISOString()}::timestamptz${siteFilter(w.sites)}
        group by reason having sum(refused) > 0 order by 2 desc, 1`);
      return result.rows.map((row) => ({ reason: row.reason, count: n(row.count) }));
    },

    async busiestGates(tx: DbExecutor, tenantId: string, w: ReportWindow) {
      const result = await tx.execute<{
        gate_id: string;
        gate_name: string | null;
        entries: string;
      }>(
        sql`
        select r.gate_id, g.name as gate_name, r.entries from (
          select gate_id, sum(total) as entries from report_hourly_entries
          where tenant_id = ${tenantId} and hour >= ${w.from.toISOString()}::timestamptz
            and hour < ${w.until.toISOString()}::timestamptz${siteFilter(w.sites)}
          group by gate_id having sum(total) > 0) r
        left join gates g on g.tenant_id = ${tenantId} and g.id = r.gate_id
        order by r.entries desc, g.name limit 20`,
      );
      return result.rows.map((row) => ({
        gateId: row.gate_name === null ? null : row.gate_id,
        gateName: row.gate_name,
        entries: n(row.entries),
      }));
    },

    /**
     * Loads, net mass and overload checks (report_hourly_weighbridge): the range's totals and the
     * 50 transporters with most loads, most first.
     */
    async weighbridge(tx: DbExecutor, tenantId: string, w: ReportWindow) {
      const result = await tx.execute<Record<string, unknown>>(sql`
        select transporter, sum(loads) as loads, sum(weighed) as weighed,
               sum(net_mass_kg) as net_mass_kg, sum(overload_checked) as overload_checked,
               sum(overloaded) as overloaded
        from report_hourly_weighbridge
        where tenant_id = ${tenantId} and hour >= ${w.from.toISOString()}::timestamptz
          and hour < ${w.until.toISOString()}::timestamptz${siteFilter(w.sites)}
        group by grouping sets ((transporter), ())
        having sum(loads) > 0 or grouping(transporter) = 1
        order by grouping(transporter) desc, 2 desc, 1
        limit 51`);
      const shape = (row: Record<string, unknown> | undefined) => ({
        loads: n(row?.loads),
        weighed: n(row?.weighed),
        netMassKg: n(row?.net_mass_kg),
        overloadChecked: n(row?.overload_checked),
        overloaded: n(row?.overloaded),
      });
      const [overall, ...byTransporter] = result.rows;
      return {
        ...shape(overall),
        byTransporter: byTransporter.map((row) => ({
          transporter: typeof row.transporter === 'string' ? row.transporter : '',
          ...shape(row),
        })),
      };
    },
    /**
     * On site now (visit_open_counts) and the net arrivals since `since`: who was on site at
     * `since` is the first minus the second, with no scan of visits.
     */
    async onSiteAt(tx: DbExecutor, tenantId: string, sites: readonly string[] | null, since: Date) {
      const result = await tx.execute<{ open: string; net: string }>(sql`
        select
          (select coalesce(sum(open), 0) from visit_open_counts
            where tenant_id = ${tenantId}${siteFilter(sites)}) as open,
          (select coalesce(sum(arrivals - departures), 0) from report_hourly_visits
            where tenant_id = ${tenantId} and hour >= ${since.toISOString()}::timestamptz${siteFilter(sites)}) as net`);
      const row = result.rows[0];
      return n(row?.open) - n(row?.net);
    },

    /** Exact median and 90th percentile of closed visits begun in the window, overall and per transporter. */
    async turnaround(
      tx: DbExecutor,
      tenantId: string,
      w: ReportWindow & { sites: readonly string[] },
    ) {
      const result = await tx.execute<{
        transporter: string | null;
        visits: string;
        median: string | null;
        p90: string | null;
      }>(sql`
        select company as transporter, count(*) as visits,
               percentile_cont(0.5) within group (order by minutes) as median,
               percentile_cont(0.9) within group (order by minutes) as p90
        from (
          select coalesce(company, '') as company,
                 extract(epoch from exited_at - entered_at) / 60 as minutes
          from visits
          where tenant_id = ${tenantId} and site_id = any(${`{${w.sites.join(',')}}`}::uuid[])
            and entered_at >= ${w.from.toISOString()}::timestamptz
            and entered_at < ${w.until.toISOString()}::timestamptz and exited_at is not null) closed
        group by grouping sets ((company), ())
        order by (company is null) desc, count(*) desc, company
        limit 21`);
      // The distribution over the same visits: how many fall in each band of TURNAROUND_BANDS.
      const bands = await tx.execute<{ band: number; visits: string }>(sql`
        select width_bucket(extract(epoch from exited_at - entered_at) / 60,
                            ${`{${TURNAROUND_BAND_EDGES.join(',')}}`}::float8[]) as band,
               count(*) as visits
        from visits
        where tenant_id = ${tenantId} and site_id = any(${`{${w.sites.join(',')}}`}::uuid[])
          and entered_at >= ${w.from.toISOString()}::timestamptz
          and entered_at < ${w.until.toISOString()}::timestamptz and exited_at is not null
        group by 1`);
      const perBand = new Map(bands.rows.map((row) => [Number(row.band), n(row.visits)]));
      const distribution = [0, ...TURNAROUND_BAND_EDGES].map((fromMinutes, index) => ({
        fromMinutes,
        toMinutes: TURNAROUND_BAND_EDGES[index] ?? null,
        visits: perBand.get(index) ?? 0,
      }));
      const [overall, ...byTransporter] = result.rows;
      const shape = (row: (typeof result.rows)[number] | undefined) => ({
        visits: n(row?.visits),
        medianMinutes: minutesOrNull(row?.median),
        p90Minutes: minutesOrNull(row?.p90),
      });
      return {
        ...shape(overall),
        distribution,
        byTransporter: byTransporter.map((row) => ({
          transporter: row.transporter ?? '',
          ...shape(row),
        })),
      };
    },
  };
}

export type ReportsRepository = ReturnType<typeof createReportsRepository>;
