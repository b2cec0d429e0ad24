import type { ReportSummary } from '@boomgate/contracts/reports';

import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { useTranslation } from '@/lib/i18n';

import { DataTable } from './data-table';

/** Kilograms as tonnes with one decimal: a load reads in tonnes at a weighbridge. */
const tonnes = (kg: number) => (kg / 1000).toLocaleString('en-ZA', { maximumFractionDigits: 1 });

/**
 * Issue 23: weighbridge loads, net mass and the overload rate per transporter. The server says
 * which loads could be checked against the disc's GVM; the screen shows how many, never a rate
 * over loads it could not check.
 */
export function ReportWeighbridge({ report }: { report: ReportSummary }) {
  const { t } = useTranslation('reports');
  const { weighbridge } = report;
  const rate = (overloaded: number, checked: number) =>
    checked === 0 ? t('notAvailable') : `${Math.round((overloaded / checked) * 1000) / 10}%`;
  return (
    <Card className="gap-3">
      <CardHeader>
        <CardTitle level={2} className="text-base">
          {t('weighbridge.title')}
        </CardTitle>
        <CardDescription data-testid="report-weighbridge-summary">
          {t('weighbridge.summary', {
            loads: weighbridge.loads,
            tonnes: tonnes(weighbridge.netMassKg),
            overloaded: weighbridge.overloaded,
            checked: weighbridge.overloadChecked,
          })}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-2">
        <DataTable
          open
          testId="report-weighbridge"
          columns={[
            t('columns.transporter'),
            t('columns.loads'),
            t('columns.netMass'),
            t('columns.checked'),
            t('columns.overloaded'),
            t('columns.overloadRate'),
          ]}
          rows={weighbridge.byTransporter.map((row) => [
            row.transporter || t('unknown'),
            row.loads,
            tonnes(row.netMassKg),
            row.overloadChecked,
            row.overloaded,
            rate(row.overloaded, row.overloadChecked),
          ])}
        />
        <p className="text-xs text-muted-foreground">{t('weighbridge.note')}</p>
      </CardContent>
    </Card>
  );
}
