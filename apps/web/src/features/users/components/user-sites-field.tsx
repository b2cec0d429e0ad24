import type { Site } from '@boomgate/contracts/sites';

import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import { useTranslation } from '@/lib/i18n';

/**
 * Issue 16: the sites a user works at. None ticked: a guard works at the default site, other
 * roles see every site. Shown only when the tenant has more than one site.
 */
export function UserSitesField({
  sites,
  value,
  onChange,
}: {
  sites: Site[];
  value: string[];
  onChange: (siteIds: string[]) => void;
}) {
  const { t } = useTranslation('users');
  if (sites.length < 2) return null;
  const toggle = (siteId: string, on: boolean) =>
    onChange(on ? [...value, siteId] : value.filter((id) => id !== siteId));
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-1 text-sm font-medium">{t('sites.legend')}</legend>
      <p className="text-xs text-muted-foreground">{t('sites.hint')}</p>
      {sites.map((site) => {
        const id = `user-site-${site.id}`;
        return (
          <div key={site.id} className="flex items-center gap-2">
            <Checkbox
              id={id}
              checked={value.includes(site.id)}
              onCheckedChange={(checked) => toggle(site.id, checked === true)}
            />
            <Label htmlFor={id}>{site.name}</Label>
          </div>
        );
      })}
    </fieldset>
  );
}
