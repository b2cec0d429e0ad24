import type { AnprCamera } from '@boomgate/contracts/anpr';
import type { Site } from '@boomgate/contracts/sites';

import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api-client';
import { useTranslation } from '@/lib/i18n';

import { useUpdateAnprCamera } from '../api/anpr-cameras';

const selectClass = 'h-9 rounded-md border border-input bg-background px-3 text-sm';

/**
 * Issue 16: the site a camera watches (its reads are that site's truck-list entries). With one
 * site there is nothing to choose, so nothing is shown.
 */
export function CameraSiteSelect({
  id,
  sites,
  value,
  onChange,
  label,
}: {
  id: string;
  sites: Site[];
  value: string;
  onChange: (siteId: string) => void;
  label: string;
}) {
  const { t } = useTranslation('integrations');
  if (sites.length < 2) return null;
  return (
    <select
      id={id}
      aria-label={label}
      className={selectClass}
      value={value}
      onChange={(event) => onChange(event.target.value)}
    >
      {value === '' && <option value="">{t('cameras.defaultSite')}</option>}
      {sites.map((site) => (
        <option key={site.id} value={site.id}>
          {site.name}
        </option>
      ))}
    </select>
  );
}

/** A listed camera's site: moved on change (the server checks the site is the caller's). */
export function CameraSite({ camera, sites }: { camera: AnprCamera; sites: Site[] }) {
  const { t } = useTranslation('integrations');
  const update = useUpdateAnprCamera();
  if (sites.length < 2) return null;
  const handleChange = (siteId: string) =>
    update.mutate(
      { id: camera.id, body: { siteId } },
      {
        onSuccess: () =>
          toast({ title: t('cameras.moved'), description: t('cameras.movedDetail') }),
        onError: (error) =>
          toast({
            variant: 'destructive',
            title: t('error'),
            description: getErrorMessage(error, t('cameras.moveFailed')),
          }),
      },
    );
  return (
    <CameraSiteSelect
      id={`camera-site-${camera.id}`}
      label={t('cameras.siteOf', { name: camera.name })}
      sites={sites}
      value={camera.siteId ?? ''}
      onChange={handleChange}
    />
  );
}
