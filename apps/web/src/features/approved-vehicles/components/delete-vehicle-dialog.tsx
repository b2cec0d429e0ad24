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
import { useTranslation } from '@/lib/i18n';
import { formatPlate } from '@/lib/plates';

/** Asks before a vehicle's approval is deleted; `confirming` null keeps it closed. */
export function DeleteVehicleDialog({
  confirming,
  onCancel,
  onConfirm,
}: {
  confirming: ApprovedVehicle | null;
  onCancel: () => void;
  onConfirm: (vehicle: ApprovedVehicle) => void;
}) {
  const { t } = useTranslation('vehicles');
  return (
    <AlertDialog
      open={confirming !== null}
      onOpenChange={(open) => {
        if (!open) onCancel();
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
              if (confirming) onConfirm(confirming);
            }}
          >
            {t('delete')}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
