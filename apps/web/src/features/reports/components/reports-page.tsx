import { lazy, Suspense, useDeferredValue, useEffect, useState } from 'react';

import { type ReportSummaryQuery, ReportSummaryQuerySchema } from '@boomgate/contracts/reports';

import { PageHeader } from '@/components/ui/page-header';
import { LoadingScreen } from '@/components/ui/spinner';
import { afterFirstScreen } from '@/lib/after-first-screen';
import { getErrorMessage } from '@/lib/api-client';
import { useSites } from '@/lib/api/sites';
import { useTranslation } from '@/lib/i18n';

import { useReportSummary } from '../api/get-report-summary';
import { ReportCharts } from './report-charts';
import { ReportTables, ReportTiles } from './report-figures';
import { type RangeValues, ReportRange } from './report-range';
import { ReportWeighbridge } from './report-weighbridge';

// The export and schedule cards sit below the report (a screen's height reserved for it) and bring
// the form, select and progress code (about 50 KB compressed): they load once the report has
// arrived (or the first screen has passed), not on the screen's critical path.
const EntryExportCard = lazy(() =>
  import('./entry-export-card').then((m) => ({ default: m.EntryExportCard })),
);
const ReportScheduleCard = lazy(() =>
  import('./report-schedule-card').then((m) => ({ default: m.ReportScheduleCard })),
);

/** True once the report has settled or the first screen has passed; stays true. */
function useBelowTheFoldReady(reportSettled: boolean): boolean {
  const [firstScreenPassed, setFirstScreenPassed] = useState(false);
  const [ready, setReady] = useState(false);
  useEffect(() => afterFirstScreen(() => setFirstScreenPassed(true)), []);
  if (!ready && (reportSettled || firstScreenPassed)) setReady(true);
  return ready;
}

/** The last seven days up to today, in the browser's zone (the site's day at a SA gate). */
function lastSevenDays(): RangeValues {
  const day = (date: Date) => date.toLocaleDateString('en-CA');
  const weekAgo = new Date();
  weekAgo.setDate(weekAgo.getDate() - 6);
  return { from: day(weekAgo), to: day(new Date()), siteId: '' };
}

function toQuery(values: RangeValues): ReportSummaryQuery | null {
  const parsed = ReportSummaryQuerySchema.safeParse({
    from: values.from,
    to: values.to,
    siteId: values.siteId || undefined,
  });
  return parsed.success ? parsed.data : null;
}

/**
 * Issue 23: the site manager's reports (charts with their data tables), the exports and, for
 * administrators, the scheduled report e-mail.
 */
export function ReportsPage({ canSchedule = false }: { canSchedule?: boolean }) {
  const { t } = useTranslation('reports');
  const sites = useSites();
  const [range, setRange] = useState(lastSevenDays);
  const [query, setQuery] = useState(() => toQuery(range));
  const [invalid, setInvalid] = useState(false);
  const report = useReportSummary(query);
  // The figures, charts and tables render as a transition (React yields every few milliseconds)
  // rather than in the query's synchronous update: on a phone that render was one long task.
  const summary = useDeferredValue(report.data);
  const belowTheFold = useBelowTheFoldReady(!report.isPending || query === null);

  const changeRange = (next: RangeValues) => {
    setRange(next);
    const parsed = toQuery(next);
    setInvalid(parsed === null);
    if (parsed) setQuery(parsed);
  };

  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-6">
      <PageHeader title={t('title')} description={t('description')} />
      <ReportRange
        value={range}
        onChange={changeRange}
        sites={sites.data ?? []}
        error={invalid ? t('invalidRange') : undefined}
      />
      {/* A screen's height reserved while the report loads, so the cards below do not jump. */}
      <div className="min-h-svh">
        {report.isError ? (
          <p role="alert" className="text-sm text-destructive">
            {getErrorMessage(report.error, t('loadFailed'))}
          </p>
        ) : summary === undefined ? (
          <LoadingScreen label={t('loading')} />
        ) : (
          <section
            aria-busy={report.isFetching || summary !== report.data}
            className="flex flex-col gap-4"
          >
            <p className="text-xs text-muted-foreground">
              {t('timeZone', { timeZone: summary.timeZone })}
            </p>
            <ReportTiles report={summary} />
            <ReportCharts report={summary} />
            <ReportTables report={summary} />
            <ReportWeighbridge report={summary} />
          </section>
        )}
      </div>
      {belowTheFold && (
        <Suspense fallback={null}>
          <EntryExportCard range={range} />
          {canSchedule && <ReportScheduleCard />}
        </Suspense>
      )}
    </div>
  );
}
