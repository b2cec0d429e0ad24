import type { ReactNode } from 'react';

import type { ReportSummary } from '@boomgate/contracts/reports';

import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Chart } from '@/components/ui/chart';
import { useTranslation } from '@/lib/i18n';

import { DataTable } from './data-table';

const hourLabel = (hour: number) => `${String(hour).padStart(2, '0')}:00`;

function ChartCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card className="gap-3">
      <CardHeader>
        <CardTitle level={2} className="text-base">
          {title}
        </CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-2">{children}</CardContent>
    </Card>
  );
}

/**
 * Issue 23: per day, per hour, on site over the last day, refusals and the turnaround
 * distribution, each with its data table.
 */
export function ReportCharts({ report }: { report: ReportSummary }) {
  const { t } = useTranslation('reports');
  const counts = [t('columns.entries'), t('columns.granted'), t('columns.refused')];
  const bands = report.turnaround.distribution.map((band) => ({
    label:
      band.toMinutes === null
        ? t('bandOpen', { from: band.fromMinutes })
        : t('bandRange', { from: band.fromMinutes, to: band.toMinutes }),
    visits: band.visits,
  }));
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <ChartCard title={t('charts.perDay')}>
        <Chart
          kind="bar"
          className="h-48"
          label={t('charts.perDay')}
          data={{
            labels: report.days.map((day) => day.day.slice(5)),
            series: [report.days.map((day) => day.granted), report.days.map((day) => day.refused)],
          }}
        />
        <DataTable
          testId="report-days"
          columns={[t('columns.day'), ...counts, t('columns.arrivals'), t('columns.departures')]}
          rows={report.days.map((day) => [
            day.day,
            day.entries,
            day.granted,
            day.refused,
            day.arrivals,
            day.departures,
          ])}
        />
      </ChartCard>
      <ChartCard title={t('charts.perHour')}>
        <Chart
          kind="bar"
          className="h-48"
          label={t('charts.perHour')}
          data={{
            labels: report.hours.map((hour) => hourLabel(hour.hour)),
            series: [
              report.hours.map((hour) => hour.granted),
              report.hours.map((hour) => hour.refused),
            ],
          }}
        />
        <DataTable
          columns={[t('columns.hour'), ...counts]}
          rows={report.hours.map((hour) => [
            hourLabel(hour.hour),
            hour.entries,
            hour.granted,
            hour.refused,
          ])}
        />
      </ChartCard>
      <ChartCard title={t('charts.onSite', { day: report.to })}>
        <Chart
          kind="line"
          className="h-48"
          label={t('charts.onSite', { day: report.to })}
          data={{
            labels: report.onSite.map((point) => hourLabel(point.hour)),
            series: [report.onSite.map((point) => point.count)],
          }}
        />
        <DataTable
          columns={[t('columns.hour'), t('columns.onSite')]}
          rows={report.onSite.map((point) => [
            `${hourLabel(point.hour)}–${hourLabel((point.hour + 1) % 24)}`,
            point.count,
          ])}
        />
      </ChartCard>
      <ChartCard title={t('charts.refusals')}>
        {report.refusalReasons.length > 0 && (
          <Chart
            kind="bar"
            horizontal
            className="h-48"
            label={t('charts.refusals')}
            data={{
              labels: report.refusalReasons.slice(0, 8).map((row) => row.reason || t('noReason')),
              series: [report.refusalReasons.slice(0, 8).map((row) => row.count)],
            }}
          />
        )}
        <DataTable
          testId="report-refusals"
          columns={[t('columns.reason'), t('columns.count')]}
          rows={report.refusalReasons.map((row) => [row.reason || t('noReason'), row.count])}
        />
      </ChartCard>
      <ChartCard title={t('charts.turnaroundDistribution')}>
        <Chart
          kind="bar"
          className="h-48"
          label={t('charts.turnaroundDistribution')}
          data={{
            labels: bands.map((band) => band.label),
            series: [bands.map((band) => band.visits)],
          }}
        />
        <DataTable
          testId="report-turnaround-bands"
          columns={[t('columns.band'), t('columns.visits')]}
          rows={bands.map((band) => [band.label, band.visits])}
        />
      </ChartCard>
    </div>
  );
}
