import type { Site } from '@boomgate/contracts/sites';

import { Label } from '@/components/ui/label';
import { useTranslation } from '@/lib/i18n';

/** Choose one site, or every site the user works at (the server limits the list either way). */
export function SitePicker({
  sites,
  value,
  onChange,
  id = 'site-picker',
}: {
  sites: Site[];
  value: string | undefined;
  onChange: (siteId: string | undefined) => void;
  id?: string;
}) {
  const { t } = useTranslation('shared');
  if (sites.length < 2) return null;
  return (
    <div className="flex items-center gap-2 print:hidden">
      <Label htmlFor={id}>{t('sitePicker.site')}</Label>
      <select
        id={id}
        className="h-9 rounded-md border border-input bg-background px-3 text-sm"
        value={value ?? ''}
        onChange={(event) => onChange(event.target.value || undefined)}
      >
        <option value="">{t('sitePicker.all')}</option>
        {sites.map((site) => (
          <option key={site.id} value={site.id}>
            {site.name}
          </option>
        ))}
      </select>
    </div>
  );
}
