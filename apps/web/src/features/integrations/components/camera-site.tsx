import type { AnprCamera } from '@boomgate/contracts/anpr';
import type { Site } from '@boomgate/contracts/sites';

import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api-client';

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
  if (sites.length < 2) return null;
  return (
    <select
      id={id}
      aria-label={label}
      className={selectClass}
      value={value}
      onChange={(event) => onChange(event.target.value)}
    >
      {value === '' && <option value="">Default site</option>}
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
  const update = useUpdateAnprCamera();
  if (sites.length < 2) return null;
  const handleChange = (siteId: string) =>
    update.mutate(
      { id: camera.id, body: { siteId } },
      {
        onSuccess: () =>
          toast({ title: 'Camera Moved', description: 'Its reads go to the new site.' }),
        onError: (error) =>
          toast({
            variant: 'destructive',
            title: 'Error',
            description: getErrorMessage(error, 'Failed to move the camera'),
          }),
      },
    );
  return (
    <CameraSiteSelect
      id={`camera-site-${camera.id}`}
      label={`Site of ${camera.name}`}
      sites={sites}
      value={camera.siteId ?? ''}
      onChange={handleChange}
    />
  );
}
