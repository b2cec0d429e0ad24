import { parseISO } from 'date-fns';
import { CarIcon, CheckIcon, PlusIcon, Trash2Icon, UserRoundIcon, XIcon } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';

import type { ApprovedVehicle } from '@boomgate/contracts/approved-vehicles';

import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { ScrollArea } from '@/components/ui/scroll-area';
import { LoadingScreen, Spinner } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';
import { apiUrl, getErrorMessage } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { useTranslation } from '@/lib/i18n';
import { formatPlate } from '@/lib/plates';

import { useApprovedVehicles, useDecideProposal, useDeleteVehicle } from '../api/approved-vehicles';

const PENDING_TEXT = {
  registration: 'pendingRegistration',
  deletion: 'pendingDeletion',
} as const;

function VehicleRow({
  vehicle,
  isDeleting,
  onDelete,
  canDecide,
  isDeciding,
  onDecide,
}: {
  vehicle: ApprovedVehicle;
  isDeleting: boolean;
  onDelete: () => void;
  /** Back office and admins confirm or reject a guard's proposal (separation of duties). */
  canDecide: boolean;
  isDeciding: boolean;
  onDecide: (decision: 'confirm' | 'reject') => void;
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

/** Spec §2 Registered Vehicles: the approved vehicles in a scroll area, each with delete. */
export function RegisteredVehicles({
  preArrivalHref,
  canDecide = false,
}: {
  preArrivalHref: string;
  /** Back office and admins may confirm or reject a security guard's proposal. */
  canDecide?: boolean;
}) {
  const vehicles = useApprovedVehicles();
  const deleteVehicle = useDeleteVehicle();
  const decideProposal = useDecideProposal();
  const [confirming, setConfirming] = useState<ApprovedVehicle | null>(null);
  const { t } = useTranslation('vehicles');

  const handleDecide = (vehicle: ApprovedVehicle, decision: 'confirm' | 'reject') => {
    const plate = formatPlate(vehicle.plateNumber);
    decideProposal.mutate(
      { id: vehicle.id, decision },
      {
        onSuccess: ({ outcome }) =>
          toast({
            title: decision === 'confirm' ? t('changeConfirmed') : t('changeRejected'),
            description:
              outcome === 'approved'
                ? t('nowApproved', { plate })
                : outcome === 'deleted'
                  ? t('noLongerRegistered', { plate })
                  : t('changeRejectedDescription', { plate }),
          }),
        onError: (error) =>
          toast({
            variant: 'destructive',
            title: t('approvalFailed'),
            description: getErrorMessage(error, t('updateFailed')),
          }),
      },
    );
  };

  const handleConfirmDelete = (vehicle: ApprovedVehicle) => {
    const plate = formatPlate(vehicle.plateNumber);
    deleteVehicle.mutate(vehicle.id, {
      onSuccess: (proposed) =>
        toast(
          proposed
            ? {
                title: t('deletionProposed'),
                description: t('deletionProposedDescription', { plate }),
              }
            : { title: t('vehicleDeleted'), description: t('noLongerRegistered', { plate }) },
        ),
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: t('deleteFailed'),
          description: getErrorMessage(error, t('deleteFailedDescription')),
        }),
    });
    setConfirming(null);
  };

  return (
    <div className="mx-auto flex w-full max-w-4xl flex-col gap-6">
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={
          <Button asChild>
            <Link href={preArrivalHref}>
              <PlusIcon aria-hidden />
              {t('registerVehicle')}
            </Link>
          </Button>
        }
      />
      <Card>
        <CardHeader>
          <CardTitle>{t('approvedVehicles')}</CardTitle>
          {vehicles.data && (
            <CardDescription>
              {t('registeredCount', { count: vehicles.data.length })}
            </CardDescription>
          )}
        </CardHeader>
        <CardContent>
          {vehicles.isPending ? (
            <LoadingScreen label={t('loading')} />
          ) : vehicles.isError ? (
            <p role="alert" className="text-sm text-destructive">
              {getErrorMessage(vehicles.error, t('loadFailed'))}
            </p>
          ) : vehicles.data.length === 0 ? (
            <div className="flex flex-col items-center gap-2 py-10 text-center">
              <CarIcon aria-hidden className="size-10 text-muted-foreground" />
              <p className="font-semibold">{t('emptyTitle')}</p>
              <p className="text-sm text-muted-foreground">{t('emptyDescription')}</p>
            </div>
          ) : (
            <ScrollArea
              className="max-h-[600px] rounded-md border"
              viewportClassName="max-h-[600px]"
              data-testid="vehicles-scroll-area"
            >
              <ul aria-label={t('listLabel')}>
                {vehicles.data.map((vehicle) => (
                  <VehicleRow
                    key={vehicle.id}
                    vehicle={vehicle}
                    isDeleting={deleteVehicle.isPending && deleteVehicle.variables === vehicle.id}
                    onDelete={() => setConfirming(vehicle)}
                    canDecide={canDecide}
                    isDeciding={
                      decideProposal.isPending && decideProposal.variables.id === vehicle.id
                    }
                    onDecide={(decision) => handleDecide(vehicle, decision)}
                  />
                ))}
              </ul>
            </ScrollArea>
          )}
        </CardContent>
      </Card>

      <AlertDialog
        open={confirming !== null}
        onOpenChange={(open) => {
          if (!open) setConfirming(null);
        }}
      >
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>{t('deleteTitle')}</AlertDialogTitle>
            <AlertDialogDescription>
              {confirming &&
                t('deleteDescription', {
                  plate: formatPlate(confirming.plateNumber),
                  name: confirming.driverName,
                })}
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>{t('cancel')}</AlertDialogCancel>
            <AlertDialogAction
              variant="destructive"
              onClick={() => {
                if (confirming) handleConfirmDelete(confirming);
              }}
            >
              {t('delete')}
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </div>
  );
}
