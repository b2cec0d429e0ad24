import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Chart } from '@/components/ui/chart';
import { useTranslation } from '@/lib/i18n';

import { useArrivalsToday } from '../api/get-arrivals-today';

/** Issue 23: entries per hour today and who is on site now, under the spec's cards. */
export function ArrivalsToday({ siteId, enabled }: { siteId?: string; enabled: boolean }) {
  const { t } = useTranslation('reports');
  const report = useArrivalsToday(siteId, enabled);
  if (!report.data) return null;
  const hours = report.data.hours;
  const now = report.data.onSite.at(-1)?.count ?? 0;
  return (
    <Card className="gap-2" data-testid="arrivals-today">
      <CardHeader>
        <CardTitle className="text-base">{t('charts.arrivalsToday')}</CardTitle>
        <CardDescription>
          {t('tiles.entries')}: {report.data.totals.entries} · {t('columns.onSite')}: {now}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Chart
          kind="bar"
          className="h-36"
          label={t('charts.arrivalsToday')}
          data={{
            labels: hours.map((hour) => String(hour.hour).padStart(2, '0')),
            series: [hours.map((hour) => hour.entries)],
          }}
        />
      </CardContent>
    </Card>
  );
}
