import type { Site } from '@boomgate/contracts/sites';

import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { useTranslation } from '@/lib/i18n';

export type RangeValues = { from: string; to: string; siteId: string };

/** The report's days (both inclusive) and site; the page validates before it asks. */
export function ReportRange({
  value,
  onChange,
  sites,
  error,
}: {
  value: RangeValues;
  onChange: (value: RangeValues) => void;
  sites: Site[];
  error?: string;
}) {
  const { t } = useTranslation('reports');
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="sr-only">{t('range')}</legend>
      <div className="grid grid-cols-2 gap-3 sm:flex sm:flex-wrap sm:items-end">
        <div className="flex flex-col gap-1">
          <Label htmlFor="report-from">{t('from')}</Label>
          <Input
            id="report-from"
            type="date"
            value={value.from}
            aria-invalid={Boolean(error)}
            onChange={(event) => onChange({ ...value, from: event.target.value })}
          />
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="report-to">{t('to')}</Label>
          <Input
            id="report-to"
            type="date"
            value={value.to}
            aria-invalid={Boolean(error)}
            onChange={(event) => onChange({ ...value, to: event.target.value })}
          />
        </div>
        {sites.length > 1 && (
          <div className="col-span-2 flex flex-col gap-1">
            <Label htmlFor="report-site">{t('site')}</Label>
            <select
              id="report-site"
              className="h-9 rounded-md border border-input bg-background px-3 text-sm"
              value={value.siteId}
              onChange={(event) => onChange({ ...value, siteId: event.target.value })}
            >
              <option value="">{t('allSites')}</option>
              {sites.map((site) => (
                <option key={site.id} value={site.id}>
                  {site.name}
                </option>
              ))}
            </select>
          </div>
        )}
      </div>
      {error && (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      )}
    </fieldset>
  );
}
