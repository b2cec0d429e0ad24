import { parseISO } from 'date-fns';

import type { ApprovedVehicle } from '@boomgate/contracts/approved-vehicles';

import { formatDate } from '@/lib/format';
import { useTranslation } from '@/lib/i18n';
import { formatPlate } from '@/lib/plates';

/** Issue 21: a rig's trailers on a vehicle row: plate, disc number and expiry (expired marked). */
export function VehicleTrailers({
  trailers,
  today,
}: {
  trailers: NonNullable<ApprovedVehicle['trailers']>;
  /** The day compared with each disc's expiry (YYYY-MM-DD). */
  today: string;
}) {
  const { t } = useTranslation('vehicles');
  if (trailers.length === 0) return null;
  return (
    <ul
      className="grid gap-0.5 text-xs"
      aria-label={t('trailers.title')}
      data-testid="vehicle-trailers"
    >
      {trailers.map((trailer) => {
        const expired = trailer.discExpiry !== null && trailer.discExpiry < today;
        return (
          <li key={trailer.plateNumber}>
            <span className="font-mono font-semibold">+ {formatPlate(trailer.plateNumber)}</span>
            <span className="text-muted-foreground">
              {' · '}
              {trailer.discNumber
                ? t('trailers.disc', { disc: trailer.discNumber })
                : t('trailers.noDisc')}
              {trailer.discExpiry &&
                ` · ${t('trailers.expires', { date: formatDate(parseISO(trailer.discExpiry)) })}`}
            </span>
            {expired && (
              <span className="font-medium text-destructive"> · {t('trailers.discExpired')}</span>
            )}
          </li>
        );
      })}
    </ul>
  );
}
