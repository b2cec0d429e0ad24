import {
  ALERT_CHANNELS,
  ALERT_KINDS,
  ALERT_SEVERITIES,
  type AlertKind,
  type AlertRoute,
  type AlertSeverity,
} from '@boomgate/contracts/alerts';
import type { Site } from '@boomgate/contracts/sites';

import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import { useTranslation } from '@/lib/i18n';

/** The rule of a kind at a site (null: all sites), if there is one. */
const ruleAt = (routes: AlertRoute[], kind: AlertKind, siteId: string | null) =>
  routes.find((route) => route.kind === kind && route.siteId === siteId);

const emptyRule = (kind: AlertKind, siteId: string | null): AlertRoute => ({
  kind,
  siteId,
  channels: [],
  minSeverity: 'info',
});

/**
 * Where each kind of alert goes, for all sites or for one site. A site's own rule for a kind
 * replaces the all-sites rule there (the server routes the same way); without one, the site
 * follows the all-sites rule ("same as all sites").
 */
export function AlertRulesTable({
  routes,
  sites,
  siteId,
  onSiteChange,
  onChange,
}: {
  routes: AlertRoute[];
  sites: Site[];
  siteId: string | null;
  onSiteChange: (siteId: string | null) => void;
  onChange: (routes: AlertRoute[]) => void;
}) {
  const { t } = useTranslation('alerts');
  const kindLabel = (kind: AlertKind) => t(`kinds.${kind}`);

  const others = (kind: AlertKind) =>
    routes.filter((route) => !(route.kind === kind && route.siteId === siteId));
  const setRule = (kind: AlertKind, change: Partial<AlertRoute>) => {
    const current = ruleAt(routes, kind, siteId) ?? emptyRule(kind, siteId);
    onChange([...others(kind), { ...current, ...change }]);
  };
  const setInherited = (kind: AlertKind, isInherited: boolean) => {
    if (isInherited) onChange(others(kind));
    else {
      // Start the site's own rule from what it followed, so turning it on changes nothing yet.
      const general = ruleAt(routes, kind, null) ?? emptyRule(kind, null);
      onChange([...others(kind), { ...general, siteId }]);
    }
  };

  return (
    <div className="grid gap-2">
      {sites.length > 1 && (
        <div className="flex flex-wrap items-center gap-2">
          <Label htmlFor="alert-rules-site">{t('settings.rulesFor')}</Label>
          <select
            id="alert-rules-site"
            className="h-8 rounded-md border bg-background px-2 text-sm"
            value={siteId ?? ''}
            onChange={(event) => onSiteChange(event.target.value || null)}
          >
            <option value="">{t('settings.allSites')}</option>
            {sites.map((site) => (
              <option key={site.id} value={site.id}>
                {site.name}
              </option>
            ))}
          </select>
        </div>
      )}
      <div className="overflow-x-auto">
        <table className="w-full text-sm">
          <thead>
            <tr className="text-left">
              <th className="py-1 pr-4 font-medium">{t('settings.event')}</th>
              {siteId && <th className="px-2 py-1 font-medium">{t('settings.sameAsAllSites')}</th>}
              {ALERT_CHANNELS.map((channel) => (
                <th key={channel} className="px-2 py-1 font-medium">
                  {t(`channels.${channel}`)}
                </th>
              ))}
              <th className="px-2 py-1 font-medium">{t('settings.fromSeverity')}</th>
            </tr>
          </thead>
          <tbody>
            {ALERT_KINDS.map((kind) => {
              const own = ruleAt(routes, kind, siteId);
              const isInherited = siteId !== null && own === undefined;
              // A site without its own rule shows (read-only) the all-sites rule it follows.
              const rule = own ?? ruleAt(routes, kind, null) ?? emptyRule(kind, siteId);
              const label = kindLabel(kind);
              return (
                <tr key={kind} className="border-t">
                  <td className="py-2 pr-4">{label}</td>
                  {siteId && (
                    <td className="px-2 py-2">
                      <Checkbox
                        aria-label={t('settings.inheritLabel', { kind: label })}
                        checked={isInherited}
                        onCheckedChange={(checked) => setInherited(kind, checked === true)}
                      />
                    </td>
                  )}
                  {ALERT_CHANNELS.map((channel) => (
                    <td key={channel} className="px-2 py-2">
                      <Checkbox
                        aria-label={t('settings.cellLabel', {
                          kind: label,
                          channel: t(`channels.${channel}`),
                        })}
                        disabled={isInherited}
                        checked={rule.channels.includes(channel)}
                        onCheckedChange={(checked) =>
                          setRule(kind, {
                            channels:
                              checked === true
                                ? [...new Set([...rule.channels, channel])]
                                : rule.channels.filter((item) => item !== channel),
                          })
                        }
                      />
                    </td>
                  ))}
                  <td className="px-2 py-2">
                    <select
                      aria-label={t('settings.severityLabel', { kind: label })}
                      className="h-8 rounded-md border bg-background px-2"
                      disabled={isInherited}
                      value={rule.minSeverity}
                      onChange={(event) =>
                        setRule(kind, { minSeverity: event.target.value as AlertSeverity })
                      }
                    >
                      {ALERT_SEVERITIES.map((severity) => (
                        <option key={severity} value={severity}>
                          {t(`severities.${severity}`)}
                        </option>
                      ))}
                    </select>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}
