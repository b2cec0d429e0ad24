import { format, parseISO } from 'date-fns';
import { CheckIcon, ContainerIcon, Trash2Icon, UserRoundIcon, XIcon } from 'lucide-react';

import type { ApprovedVehicle } from '@boomgate/contracts/approved-vehicles';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { apiUrl } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { useTranslation } from '@/lib/i18n';
import { formatPlate } from '@/lib/plates';

import { VehicleTrailers } from './vehicle-trailers';

const PENDING_TEXT = {
  registration: 'pendingRegistration',
  deletion: 'pendingDeletion',
} as const;

/** One registered vehicle: photo, plate and status, driver, approval, a rig's trailers, actions. */
export function VehicleRow({
  vehicle,
  isDeleting,
  onDelete,
  canDecide,
  isDeciding,
  onDecide,
  onEditTrailers,
}: {
  vehicle: ApprovedVehicle;
  isDeleting: boolean;
  onDelete: () => void;
  /** Back office and admins confirm or reject a guard's proposal (separation of duties). */
  canDecide: boolean;
  isDeciding: boolean;
  onDecide: (decision: 'confirm' | 'reject') => void;
  /** Issue 21: back office and admins edit a rig's trailers. */
  onEditTrailers?: () => void;
}) {
  const plate = formatPlate(vehicle.plateNumber);
  const { t } = useTranslation('vehicles');
  return (
    <li
      className="flex items-center gap-4 border-b p-3 last:border-b-0"
      data-testid={`vehicle-${vehicle.plateNumber}`}
    >
      {vehicle.driverPhoto ? (
        <img
          src={apiUrl(vehicle.driverPhoto)}
          alt={t('driverPhotoAlt', { name: vehicle.driverName })}
          loading="lazy"
          className="size-14 shrink-0 rounded-md bg-muted object-cover"
        />
      ) : (
        <div
          className="flex size-14 shrink-0 items-center justify-center rounded-md bg-muted text-muted-foreground"
          title={t('noDriverPhoto')}
        >
          <UserRoundIcon aria-hidden className="size-6" />
        </div>
      )}
      <div className="grid min-w-0 flex-1 gap-1">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-mono text-base font-semibold">{plate}</span>
          {vehicle.pendingApproval ? (
            <Badge variant="outline">{t('pendingApproval')}</Badge>
          ) : vehicle.isActive ? (
            <Badge variant="success">{t('active')}</Badge>
          ) : (
            <Badge variant="secondary">{t('inactive')}</Badge>
          )}
        </div>
        {vehicle.pendingApproval && (
          <p className="text-xs text-muted-foreground">
            {t(PENDING_TEXT[vehicle.pendingApproval])}
          </p>
        )}
        <p className="truncate text-sm">
          {vehicle.driverName}
          {vehicle.company && <span className="text-muted-foreground"> · {vehicle.company}</span>}
        </p>
        <p className="text-xs text-muted-foreground">
          {vehicle.approvedUntil
            ? t('approvedUntil', { date: formatDate(parseISO(vehicle.approvedUntil)) })
            : t('noEndDate')}
          {vehicle.driverLicense && t('licence', { licence: vehicle.driverLicense })}
        </p>
        <VehicleTrailers
          trailers={vehicle.trailers ?? []}
          today={format(new Date(), 'yyyy-MM-dd')}
        />
      </div>
      {canDecide && vehicle.pendingApproval && (
        <div className="flex shrink-0 gap-1">
          <Button
            variant="outline"
            size="sm"
            aria-label={t('confirmPlate', { plate })}
            disabled={isDeciding}
            onClick={() => onDecide('confirm')}
          >
            <CheckIcon aria-hidden />
            {t('confirm')}
          </Button>
          <Button
            variant="outline"
            size="sm"
            aria-label={t('rejectPlate', { plate })}
            disabled={isDeciding}
            onClick={() => onDecide('reject')}
          >
            <XIcon aria-hidden />
            {t('reject')}
          </Button>
        </div>
      )}
      {onEditTrailers && (
        <Button
          variant="ghost"
          size="icon"
          className="shrink-0"
          aria-label={t('trailers.editPlate', { plate })}
          onClick={onEditTrailers}
        >
          <ContainerIcon aria-hidden />
        </Button>
      )}
      <Button
        variant="ghost"
        size="icon"
        className="shrink-0 text-destructive hover:text-destructive"
        aria-label={t('deletePlate', { plate })}
        disabled={isDeleting}
        onClick={onDelete}
      >
        {isDeleting ? <Spinner /> : <Trash2Icon aria-hidden />}
      </Button>
    </li>
  );
}
