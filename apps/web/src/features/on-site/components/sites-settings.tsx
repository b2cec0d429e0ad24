import { type ReactNode, useState } from 'react';

import type { LaneDirection, Site } from '@boomgate/contracts/sites';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { PageHeader } from '@/components/ui/page-header';
import { LoadingScreen } from '@/components/ui/spinner';
import { getErrorMessage } from '@/lib/api-client';
import { useTranslation } from '@/lib/i18n';

import { useSites } from '../api/on-site';
import { useCreateGate, useCreateSite, useGates, useUpdateSite } from '../api/sites-admin';
import { GatePresence } from './gate-presence';

const selectClass = 'h-9 rounded-md border border-input bg-background px-3 text-sm';

function SiteGates({
  site,
  extras,
}: {
  site: Site;
  extras?: ((site: Site) => ReactNode) | undefined;
}) {
  const { t } = useTranslation('settings');
  const gates = useGates(site.id);
  const createGate = useCreateGate(site.id);
  const updateSite = useUpdateSite();
  const [gateName, setGateName] = useState('');
  const [laneName, setLaneName] = useState(() => t('sites.laneDefault'));
  const [direction, setDirection] = useState<LaneDirection>('both');
  const [automatic, setAutomatic] = useState(false);
  const [overstay, setOverstay] = useState(String(site.overstayMinutes));
  // The site's clock: its day on the dashboard and its alerts' quiet hours (issue 22).
  const [timeZone, setTimeZone] = useState(site.timezone);

  return (
    <Card data-testid="site-card">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          {site.name}
          {site.isDefault ? <Badge variant="secondary">{t('sites.default')}</Badge> : null}
        </CardTitle>
        <CardDescription>{site.timezone}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            updateSite.mutate({
              id: site.id,
              overstayMinutes: Number(overstay),
              ...(timeZone.trim() !== site.timezone && { timezone: timeZone.trim() }),
            });
          }}
        >
          <div className="grid gap-1">
            <Label htmlFor={`overstay-${site.id}`}>{t('sites.overstay')}</Label>
            <Input
              id={`overstay-${site.id}`}
              type="number"
              min={1}
              value={overstay}
              onChange={(e) => setOverstay(e.target.value)}
            />
          </div>
          <div className="grid gap-1">
            <Label htmlFor={`timezone-${site.id}`}>{t('sites.timeZone')}</Label>
            <Input
              id={`timezone-${site.id}`}
              value={timeZone}
              onChange={(e) => setTimeZone(e.target.value)}
            />
          </div>
          <Button type="submit" variant="outline" disabled={updateSite.isPending}>
            {t('sites.save')}
          </Button>
        </form>
        <ul className="flex flex-col gap-1 text-sm">
          {(gates.data ?? []).map((gate) => (
            <li key={gate.id} data-testid="gate-row">
              <span className="font-medium">{gate.name}</span>{' '}
              <span className="text-muted-foreground">
                {gate.lanes
                  .map(
                    (lane) =>
                      `${lane.name} (${t(`sites.laneDirections.${lane.direction}`)}${lane.automatic ? t('sites.automaticShort') : ''})`,
                  )
                  .join(', ') || t('sites.noLanes')}
              </span>{' '}
              <GatePresence gateId={gate.id} />
            </li>
          ))}
        </ul>
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            createGate.mutate(
              {
                name: gateName,
                lanes: laneName.trim() ? [{ name: laneName, direction, automatic }] : [],
              },
              { onSuccess: () => setGateName('') },
            );
          }}
        >
          <div className="grid gap-1">
            <Label htmlFor={`gate-${site.id}`}>{t('sites.newGate')}</Label>
            <Input
              id={`gate-${site.id}`}
              required
              value={gateName}
              onChange={(e) => setGateName(e.target.value)}
            />
          </div>
          <div className="grid gap-1">
            <Label htmlFor={`lane-${site.id}`}>{t('sites.lane')}</Label>
            <Input
              id={`lane-${site.id}`}
              value={laneName}
              onChange={(e) => setLaneName(e.target.value)}
            />
          </div>
          <div className="grid gap-1">
            <Label htmlFor={`direction-${site.id}`}>{t('sites.direction')}</Label>
            <select
              id={`direction-${site.id}`}
              className={selectClass}
              value={direction}
              onChange={(e) => setDirection(e.target.value as LaneDirection)}
            >
              <option value="in">{t('sites.directions.in')}</option>
              <option value="out">{t('sites.directions.out')}</option>
              <option value="both">{t('sites.directions.both')}</option>
            </select>
          </div>
          <label className="flex h-9 items-center gap-2 text-sm">
            <input
              type="checkbox"
              checked={automatic}
              onChange={(e) => setAutomatic(e.target.checked)}
            />
            {t('sites.automatic')}
          </label>
          <Button type="submit" disabled={createGate.isPending || !gateName.trim()}>
            {t('sites.addGate')}
          </Button>
        </form>
        {createGate.isError || updateSite.isError ? (
          <p role="alert" className="text-sm text-destructive">
            {getErrorMessage(createGate.error ?? updateSite.error, t('sites.saveFailed'))}
          </p>
        ) : null}
        {extras?.(site)}
      </CardContent>
    </Card>
  );
}

/**
 * Issue 16, under Settings: the tenant's sites, their gates and lanes. `siteExtras` adds other
 * features' parts to each site's card (issue 28: its site node tokens), composed by the route.
 */
export function SitesSettings({ siteExtras }: { siteExtras?: (site: Site) => ReactNode } = {}) {
  const { t } = useTranslation('settings');
  const sites = useSites();
  const createSite = useCreateSite();
  const [name, setName] = useState('');
  const [timezone, setTimezone] = useState('Africa/Johannesburg');

  return (
    <div className="mx-auto flex w-full max-w-4xl flex-col gap-6">
      <PageHeader title={t('sites.title')} description={t('sites.description')} />
      <Card>
        <CardHeader>
          <CardTitle>{t('sites.addSite')}</CardTitle>
        </CardHeader>
        <CardContent>
          <form
            className="flex flex-wrap items-end gap-2"
            onSubmit={(event) => {
              event.preventDefault();
              createSite.mutate({ name, timezone }, { onSuccess: () => setName('') });
            }}
          >
            <div className="grid gap-1">
              <Label htmlFor="site-name">{t('sites.name')}</Label>
              <Input
                id="site-name"
                required
                value={name}
                onChange={(e) => setName(e.target.value)}
              />
            </div>
            <div className="grid gap-1">
              <Label htmlFor="site-timezone">{t('sites.timeZone')}</Label>
              <Input
                id="site-timezone"
                value={timezone}
                onChange={(e) => setTimezone(e.target.value)}
              />
            </div>
            <Button type="submit" disabled={createSite.isPending || !name.trim()}>
              {t('sites.addSiteButton')}
            </Button>
          </form>
          {createSite.isError ? (
            <p role="alert" className="text-sm text-destructive">
              {getErrorMessage(createSite.error, t('sites.addSiteFailed'))}
            </p>
          ) : null}
        </CardContent>
      </Card>
      {sites.isPending ? (
        <LoadingScreen label={t('sites.loading')} />
      ) : sites.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {getErrorMessage(sites.error, t('sites.loadFailed'))}
        </p>
      ) : (
        sites.data.map((site) => <SiteGates key={site.id} site={site} extras={siteExtras} />)
      )}
    </div>
  );
}
