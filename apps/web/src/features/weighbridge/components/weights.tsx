import { Badge } from '@/components/ui/badge';
import { formatNumber } from '@/lib/format';
import { i18next, useTranslation } from '@/lib/i18n';

/** Whole kilograms in the chosen language's digit grouping ("49,500 kg" in English). */
export function formatKg(value: number | null): string {
  return value === null
    ? '-'
    : i18next.t('weighbridge:kg', { value: formatNumber(value, { maximumFractionDigits: 0 }) });
}

/** The gross − tare = net check as a badge; a dash when a weight is missing. */
export function WeightCheck({ agrees }: { agrees: boolean | null }) {
  const { t } = useTranslation('weighbridge');
  if (agrees === null) return <span className="text-muted-foreground">-</span>;
  return agrees ? (
    <Badge variant="success">{t('check.agrees')}</Badge>
  ) : (
    <Badge variant="destructive">{t('check.disagrees')}</Badge>
  );
}
