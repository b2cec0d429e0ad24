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
import { formatPlate } from '@/lib/plates';

import { useApprovedVehicles, useDecideProposal, useDeleteVehicle } from '../api/approved-vehicles';

const PENDING_TEXT = {
  registration: 'Registered by a security guard: not approved until confirmed',
  deletion: 'Deletion proposed by a security guard',
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
  return (
    <li
      className="flex items-center gap-4 border-b p-3 last:border-b-0"
      data-testid={`vehicle-${vehicle.plateNumber}`}
    >
      {vehicle.driverPhoto ? (
        <img
          src={apiUrl(vehicle.driverPhoto)}
          alt={`Driver ${vehicle.driverName}`}
          loading="lazy"
          className="size-14 shrink-0 rounded-md bg-muted object-cover"
        />
      ) : (
        <div
          className="flex size-14 shrink-0 items-center justify-center rounded-md bg-muted text-muted-foreground"
          title="No driver photo"
        >
          <UserRoundIcon aria-hidden className="size-6" />
        </div>
      )}
      <div className="grid min-w-0 flex-1 gap-1">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-mono text-base font-semibold">{plate}</span>
          {vehicle.pendingApproval ? (
            <Badge variant="outline">Pending approval</Badge>
          ) : vehicle.isActive ? (
            <Badge variant="success">Active</Badge>
          ) : (
            <Badge variant="secondary">Inactive</Badge>
          )}
        </div>
        {vehicle.pendingApproval && (
          <p className="text-xs text-muted-foreground">{PENDING_TEXT[vehicle.pendingApproval]}</p>
        )}
        <p className="truncate text-sm">
          {vehicle.driverName}
          {vehicle.company && <span className="text-muted-foreground"> · {vehicle.company}</span>}
        </p>
        <p className="text-xs text-muted-foreground">
          {vehicle.approvedUntil
            ? `Approved until ${formatDate(parseISO(vehicle.approvedUntil))}`
            : 'Approved with no end date'}
          {vehicle.driverLicense && ` · Licence ${vehicle.driverLicense}`}
        </p>
      </div>
      {canDecide && vehicle.pendingApproval && (
        <div className="flex shrink-0 gap-1">
          <Button
            variant="outline"
            size="sm"
            aria-label={`Confirm ${plate}`}
            disabled={isDeciding}
            onClick={() => onDecide('confirm')}
          >
            <CheckIcon aria-hidden />
            Confirm
          </Button>
          <Button
            variant="outline"
            size="sm"
            aria-label={`Reject ${plate}`}
            disabled={isDeciding}
            onClick={() => onDecide('reject')}
          >
            <XIcon aria-hidden />
            Reject
          </Button>
        </div>
      )}
      <Button
        variant="ghost"
        size="icon"
        className="shrink-0 text-destructive hover:text-destructive"
        aria-label={`Delete ${plate}`}
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

  const handleDecide = (vehicle: ApprovedVehicle, decision: 'confirm' | 'reject') => {
    const plate = formatPlate(vehicle.plateNumber);
    decideProposal.mutate(
      { id: vehicle.id, decision },
      {
        onSuccess: ({ outcome }) =>
          toast({
            title: decision === 'confirm' ? 'Change Confirmed' : 'Change Rejected',
            description:
              outcome === 'approved'
                ? `${plate} is approved for entry.`
                : outcome === 'deleted'
                  ? `${plate} is no longer registered.`
                  : `The proposed change to ${plate} was rejected.`,
          }),
        onError: (error) =>
          toast({
            variant: 'destructive',
            title: 'Approval Failed',
            description: getErrorMessage(error, 'Failed to update vehicle'),
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
                title: 'Deletion Proposed',
                description: `${plate} stays registered until back office or an admin confirms.`,
              }
            : { title: 'Vehicle Deleted', description: `${plate} is no longer registered.` },
        ),
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: 'Delete Failed',
          description: getErrorMessage(error, 'Failed to delete vehicle'),
        }),
    });
    setConfirming(null);
  };

  return (
    <div className="mx-auto flex w-full max-w-4xl flex-col gap-6">
      <PageHeader
        title="Registered Vehicles"
        description="Vehicles approved for entry, with their drivers."
        actions={
          <Button asChild>
            <Link href={preArrivalHref}>
              <PlusIcon aria-hidden />
              Register Vehicle
            </Link>
          </Button>
        }
      />
      <Card>
        <CardHeader>
          <CardTitle>Approved Vehicles</CardTitle>
          {vehicles.data && (
            <CardDescription>{vehicles.data.length} registered vehicle(s)</CardDescription>
          )}
        </CardHeader>
        <CardContent>
          {vehicles.isPending ? (
            <LoadingScreen label="Loading vehicles..." />
          ) : vehicles.isError ? (
            <p role="alert" className="text-sm text-destructive">
              {getErrorMessage(vehicles.error, 'Failed to load vehicles')}
            </p>
          ) : vehicles.data.length === 0 ? (
            <div className="flex flex-col items-center gap-2 py-10 text-center">
              <CarIcon aria-hidden className="size-10 text-muted-foreground" />
              <p className="font-semibold">No Registered Vehicles</p>
              <p className="text-sm text-muted-foreground">
                Pre-register a vehicle so it can pass the auto gate.
              </p>
            </div>
          ) : (
            <ScrollArea
              className="max-h-[600px] rounded-md border"
              viewportClassName="max-h-[600px]"
              data-testid="vehicles-scroll-area"
            >
              <ul aria-label="Registered vehicles">
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
            <AlertDialogTitle>Delete Vehicle?</AlertDialogTitle>
            <AlertDialogDescription>
              {confirming &&
                `${formatPlate(confirming.plateNumber)} (${confirming.driverName}) will no longer be approved at the gate, and the driver photo is deleted. This cannot be undone.`}
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <AlertDialogAction
              variant="destructive"
              onClick={() => {
                if (confirming) handleConfirmDelete(confirming);
              }}
            >
              Delete
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </div>
  );
}
