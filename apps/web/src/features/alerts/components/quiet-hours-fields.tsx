import type { AlertSettings, SiteQuietHours } from '@boomgate/contracts/alerts';
import type { Site } from '@boomgate/contracts/sites';

import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { useTranslation } from '@/lib/i18n';

type QuietHours = NonNullable<AlertSettings['quietHours']>;

const NIGHT: QuietHours = { start: '22:00', end: '06:00', minSeverity: 'critical' };

function TimeRange({
  idPrefix,
  value,
  fromLabel,
  toLabel,
  onChange,
}: {
  idPrefix: string;
  value: { start: string; end: string };
  fromLabel: string;
  toLabel: string;
  onChange: (change: { start?: string; end?: string }) => void;
}) {
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Label htmlFor={`${idPrefix}-start`}>{fromLabel}</Label>
      <Input
        id={`${idPrefix}-start`}
        type="time"
        className="w-32"
        value={value.start}
        onChange={(event) => onChange({ start: event.target.value })}
      />
      <Label htmlFor={`${idPrefix}-end`}>{toLabel}</Label>
      <Input
        id={`${idPrefix}-end`}
        type="time"
        className="w-32"
        value={value.end}
        onChange={(event) => onChange({ end: event.target.value })}
      />
    </div>
  );
}

/**
 * Quiet hours: the organization's, and a site's own in their place. The server reads each on the
 * site's clock (its time zone, shown beside its name).
 */
export function QuietHoursFields({
  quietHours,
  siteQuietHours,
  sites,
  onChange,
}: {
  quietHours: AlertSettings['quietHours'];
  siteQuietHours: SiteQuietHours[];
  sites: Site[];
  onChange: (
    change: Pick<AlertSettings, 'quietHours'> | Pick<AlertSettings, 'siteQuietHours'>,
  ) => void;
}) {
  const { t } = useTranslation('alerts');
  const setSite = (siteId: string, next: SiteQuietHours | null) =>
    onChange({
      siteQuietHours: [
        ...siteQuietHours.filter((entry) => entry.siteId !== siteId),
        ...(next ? [next] : []),
      ],
    });

  return (
    <div className="grid gap-3">
      <div className="flex items-center gap-3">
        <Checkbox
          id="alert-quiet-hours"
          checked={quietHours !== null}
          onCheckedChange={(checked) => onChange({ quietHours: checked === true ? NIGHT : null })}
        />
        <Label htmlFor="alert-quiet-hours">{t('settings.quietHours')}</Label>
      </div>
      {quietHours && (
        <TimeRange
          idPrefix="alert-quiet"
          value={quietHours}
          fromLabel={t('settings.from')}
          toLabel={t('settings.to')}
          onChange={(change) => onChange({ quietHours: { ...quietHours, ...change } })}
        />
      )}
      {sites.length > 1 && (
        <fieldset className="grid gap-3" data-testid="site-quiet-hours">
          <legend className="text-sm font-medium">{t('settings.siteQuietHours')}</legend>
          <p className="text-sm text-muted-foreground">{t('settings.siteQuietHoursHint')}</p>
          {sites.map((site) => {
            const own = siteQuietHours.find((entry) => entry.siteId === site.id);
            return (
              <div key={site.id} className="grid gap-2">
                <div className="flex items-center gap-3">
                  <Checkbox
                    id={`alert-quiet-${site.id}`}
                    checked={own !== undefined}
                    onCheckedChange={(checked) =>
                      setSite(
                        site.id,
                        checked === true ? { siteId: site.id, ...(quietHours ?? NIGHT) } : null,
                      )
                    }
                  />
                  <Label htmlFor={`alert-quiet-${site.id}`}>
                    {t('settings.ownQuietHours', { site: site.name, timeZone: site.timezone })}
                  </Label>
                </div>
                {own && (
                  <TimeRange
                    idPrefix={`alert-quiet-${site.id}`}
                    value={own}
                    fromLabel={t('settings.siteFrom', { site: site.name })}
                    toLabel={t('settings.siteTo', { site: site.name })}
                    onChange={(change) => setSite(site.id, { ...own, ...change })}
                  />
                )}
              </div>
            );
          })}
        </fieldset>
      )}
    </div>
  );
}
