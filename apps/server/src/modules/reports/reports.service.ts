import type { ReportSummary, ReportSummaryQuery } from '@boomgate/contracts/reports';

import type { SitesRepository, SitesService } from '@/modules/sites';
import type { Actor } from '@/modules/sessions';
import { DEFAULT_SITE_TIME_ZONE, siteDayRange } from '@/platform/calendar';
import type { Database, DbExecutor } from '@/platform/db';

import type { ReportWindow, ReportsRepository } from './reports.repository';

export type ReportsServiceDeps = {
  database: Pick<Database, 'withTenant' | 'readTogether'>;
  repository: ReportsRepository;
  sites: Pick<SitesService['inTransaction'], 'scopeOf' | 'visibleSite'>;
  siteRows: Pick<SitesRepository, 'listSiteIds'>;
};

export type ReportsService = ReturnType<typeof createReportsService>;

type Counts = {
  entries: number;
  granted: number;
  refused: number;
  arrivals: number;
  departures: number;
};
const zero = (): Counts => ({ entries: 0, granted: 0, refused: 0, arrivals: 0, departures: 0 });
const rate = (part: number, whole: number) => (whole > 0 ? part / whole : null);

/** Every YYYY-MM-DD from `from` to `to`, both inclusive. */
function daysOf(from: string, to: string): string[] {
  const days: string[] = [];
  for (let d = new Date(`${from}T00:00:00Z`); d.toISOString().slice(0, 10) <= to;) {
    days.push(d.toISOString().slice(0, 10));
    d = new Date(d.getTime() + 86_400_000);
  }
  return days;
}

type WeighbridgeCounts = {
  loads: number;
  weighed: number;
  netMassKg: number;
  overloadChecked: number;
  overloaded: number;
};

/** The weighbridge counts with their overload rates (overloaded of the checked loads). */
function weighbridgeFigures(
  figures: WeighbridgeCounts & { byTransporter: (WeighbridgeCounts & { transporter: string })[] },
) {
  const withRate = <T extends WeighbridgeCounts>(counts: T) => ({
    ...counts,
    overloadRate: rate(counts.overloaded, counts.overloadChecked),
  });
  return { ...withRate(figures), byTransporter: figures.byTransporter.map(withRate) };
}

/**
 * Issue 23: the site manager's report for a range of site days, in the site's timezone (SAST
 * when the report spans every site). A user limited to some sites sees only theirs; a site
 * outside them is not found, like another tenant's.
 */
export function createReportsService({
  database,
  repository,
  sites,
  siteRows,
}: ReportsServiceDeps) {
  /**
   * The report for a tenant's sites `scope` (null: every site; `siteIds`: the sites that are),
   * its days cut in `timeZone`. Its queries are independent: they run side by side on one
   * snapshot (readTogether), so a year's report takes about its slowest query, not their sum.
   */
  async function compute(
    tenantId: string,
    query: ReportSummaryQuery,
    timeZone: string,
    scope: readonly string[] | null,
    siteIds: readonly string[],
  ): Promise<ReportSummary> {
    const range = siteDayRange(query.from, query.to, timeZone);
    const window: ReportWindow = { ...range, timeZone, sites: scope };
    const lastDay = siteDayRange(query.to, query.to, timeZone);

    const [counts, turnaround, refusalReasons, busiestGates, weighbridge, onSiteAtUntil] =
      await database.readTogether(tenantId, [
        (tx) => repository.dayAndHourCounts(tx, tenantId, window, query.to),
        (tx) => repository.turnaround(tx, tenantId, { ...window, sites: siteIds }),
        (tx) => repository.refusalReasons(tx, tenantId, window),
        (tx) => repository.busiestGates(tx, tenantId, window),
        (tx) => repository.weighbridge(tx, tenantId, window),
        (tx) => repository.onSiteAt(tx, tenantId, scope, lastDay.until),
      ]);

    const days = new Map(daysOf(query.from, query.to).map((day) => [day, zero()]));
    const hours = Array.from({ length: 24 }, zero);
    const lastDayNet = Array.from({ length: 24 }, () => 0);
    const totals = { ...zero(), approved: 0, faceVerified: 0, corrected: 0 };
    const countsOf = (row: Omit<Counts, 'refused'>): Counts => ({
      entries: row.entries,
      granted: row.granted,
      refused: row.entries - row.granted,
      arrivals: row.arrivals,
      departures: row.departures,
    });
    const addTo = (target: Counts | undefined, more: Counts) => {
      if (!target) return;
      for (const key of Object.keys(more) as (keyof Counts)[]) target[key] += more[key];
    };
    for (const row of counts.byDay) {
      addTo(days.get(row.day), countsOf(row));
      addTo(totals, countsOf(row));
      totals.approved += row.approved;
      totals.faceVerified += row.faceVerified;
      totals.corrected += row.corrected;
    }
    for (const row of counts.byHour) {
      addTo(hours[row.hour], countsOf(row));
      if (row.isLastDay) lastDayNet[row.hour] = row.arrivals - row.departures;
    }
    // On site at the end of each hour of the last day: work back from the end of the day.
    const onSite: ReportSummary['onSite'] = [];
    let count = onSiteAtUntil;
    for (let hour = 23; hour >= 0; hour--) {
      onSite.unshift({ hour, count });
      count -= lastDayNet[hour] ?? 0;
    }

    return {
      from: query.from,
      to: query.to,
      siteId: query.siteId ?? null,
      timeZone,
      totals,
      rates: {
        approval: rate(totals.granted, totals.entries),
        faceVerification: rate(totals.faceVerified, totals.entries),
        manualCorrection: rate(totals.corrected, totals.entries),
      },
      days: [...days].map(([day, counts]) => ({ day, ...counts })),
      hours: hours.map((counts, hour) => ({ hour, ...counts })),
      onSite,
      refusalReasons,
      turnaround,
      busiestGates,
      weighbridge: weighbridgeFigures(weighbridge),
    };
  }

  /** The sites a report covers: `scope` (null: every site of the tenant) and their ids. */
  const sitesOf = async (tx: DbExecutor, tenantId: string, scope: readonly string[] | null) => ({
    scope,
    siteIds: scope ?? (await siteRows.listSiteIds(tx, tenantId)),
  });

  return {
    async summary(actor: Actor, query: ReportSummaryQuery): Promise<ReportSummary> {
      const { timeZone, scope, siteIds } = await database.withTenant(actor.tenantId, async (tx) => {
        if (query.siteId) {
          const site = await sites.visibleSite(tx, actor, query.siteId);
          return { timeZone: site.timezone, scope: [query.siteId], siteIds: [query.siteId] };
        }
        const visible = await sites.scopeOf(tx, actor);
        return {
          timeZone: DEFAULT_SITE_TIME_ZONE,
          ...(await sitesOf(tx, actor.tenantId, visible)),
        };
      });
      return compute(actor.tenantId, query, timeZone, scope, siteIds);
    },
    /**
     * The scheduled e-mail's report (no user asks for it): one site in its timezone, else every
     * site of the tenant in SAST.
     */
    async tenantSummary(
      tenantId: string,
      query: Omit<ReportSummaryQuery, 'siteId'>,
      site?: { id: string; timezone: string },
    ) {
      if (site)
        return compute(
          tenantId,
          { ...query, siteId: site.id },
          site.timezone,
          [site.id],
          [site.id],
        );
      const { siteIds } = await database.withTenant(tenantId, (tx) => sitesOf(tx, tenantId, null));
      return compute(tenantId, query, DEFAULT_SITE_TIME_ZONE, null, siteIds);
    },
  };
}
