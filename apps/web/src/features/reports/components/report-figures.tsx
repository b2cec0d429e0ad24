import type { ReportSummary } from '@boomgate/contracts/reports';

import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { useTranslation } from '@/lib/i18n';

import { DataTable } from './data-table';

const percent = (rate: number | null) =>
  rate === null ? null : `${Math.round(rate * 1000) / 10}%`;

function Tile({ id, title, value }: { id: string; title: string; value: string }) {
  return (
    <Card className="gap-1 py-4" data-testid={`report-${id}`}>
      <CardHeader className="px-4">
        <CardTitle level={2} className="text-sm font-medium text-muted-foreground">
          {title}
        </CardTitle>
      </CardHeader>
      <CardContent className="px-4">
        <p className="text-2xl font-bold tabular-nums">{value}</p>
      </CardContent>
    </Card>
  );
}

/** The range's headline numbers. */
export function ReportTiles({ report }: { report: ReportSummary }) {
  const { t } = useTranslation('reports');
  const na = t('notAvailable');
  const minutes = (value: number | null) =>
    value === null ? na : t('minutes', { value: Math.round(value) });
  const { totals, rates, turnaround } = report;
  return (
    <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
      <Tile id="entries" title={t('tiles.entries')} value={String(totals.entries)} />
      <Tile id="granted" title={t('tiles.granted')} value={String(totals.granted)} />
      <Tile id="refused" title={t('tiles.refused')} value={String(totals.refused)} />
      <Tile id="approval" title={t('tiles.approvalRate')} value={percent(rates.approval) ?? na} />
      <Tile id="face" title={t('tiles.faceRate')} value={percent(rates.faceVerification) ?? na} />
      <Tile
        id="corrections"
        title={t('tiles.correctionRate')}
        value={percent(rates.manualCorrection) ?? na}
      />
      <Tile
        id="median"
        title={t('tiles.medianTurnaround')}
        value={minutes(turnaround.medianMinutes)}
      />
      <Tile id="p90" title={t('tiles.p90Turnaround')} value={minutes(turnaround.p90Minutes)} />
    </div>
  );
}

/** Turnaround per transporter and the busiest gates, as tables (they read better than bars). */
export function ReportTables({ report }: { report: ReportSummary }) {
  const { t } = useTranslation('reports');
  const minutes = (value: number | null) =>
    value === null ? t('notAvailable') : t('minutes', { value: Math.round(value) });
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <Card className="gap-3">
        <CardHeader>
          <CardTitle level={2} className="text-base">
            {t('charts.turnaround')}
          </CardTitle>
        </CardHeader>
        <CardContent>
          <DataTable
            open
            testId="report-turnaround"
            columns={[
              t('columns.transporter'),
              t('columns.visits'),
              t('columns.median'),
              t('columns.p90'),
            ]}
            rows={report.turnaround.byTransporter.map((row) => [
              row.transporter || t('unknown'),
              row.visits,
              minutes(row.medianMinutes),
              minutes(row.p90Minutes),
            ])}
          />
        </CardContent>
      </Card>
      <Card className="gap-3">
        <CardHeader>
          <CardTitle level={2} className="text-base">
            {t('charts.gates')}
          </CardTitle>
        </CardHeader>
        <CardContent>
          <DataTable
            open
            testId="report-gates"
            columns={[t('columns.gate'), t('columns.entries')]}
            rows={report.busiestGates.map((row) => [row.gateName ?? t('noGate'), row.entries])}
          />
        </CardContent>
      </Card>
    </div>
  );
}
