import { CarIcon, PlusIcon } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';

import type { ApprovedVehicle } from '@boomgate/contracts/approved-vehicles';

import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { ScrollArea } from '@/components/ui/scroll-area';
import { LoadingScreen } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api-client';
import { useTranslation } from '@/lib/i18n';
import { formatPlate } from '@/lib/plates';

import { useApprovedVehicles, useDecideProposal, useDeleteVehicle } from '../api/approved-vehicles';

import { DeleteVehicleDialog } from './delete-vehicle-dialog';
import { EditTrailersDialog } from './edit-trailers-dialog';
import { VehicleRow } from './vehicle-row';

/**
 * Spec §2 Registered Vehicles: the approved vehicles in a scroll area, each with delete; a rig shows
 * its trailers (issue 21), which back office and admins edit.
 */
export function RegisteredVehicles({
  preArrivalHref,
  canDecide = false,
}: {
  preArrivalHref: string;
  /**
   * Back office and admins may confirm or reject a security guard's proposal, and edit a rig's
   * trailers (issue 21).
   */
  canDecide?: boolean;
}) {
  const vehicles = useApprovedVehicles();
  const deleteVehicle = useDeleteVehicle();
  const decideProposal = useDecideProposal();
  const [confirming, setConfirming] = useState<ApprovedVehicle | null>(null);
  const [editing, setEditing] = useState<ApprovedVehicle | null>(null);
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
                    onEditTrailers={canDecide ? () => setEditing(vehicle) : undefined}
                  />
                ))}
              </ul>
            </ScrollArea>
          )}
        </CardContent>
      </Card>

      <DeleteVehicleDialog
        confirming={confirming}
        onCancel={() => setConfirming(null)}
        onConfirm={handleConfirmDelete}
      />
      {editing && <EditTrailersDialog vehicle={editing} onClose={() => setEditing(null)} />}
    </div>
  );
}
