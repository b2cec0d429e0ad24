import { useState } from 'react';

import type { ApprovedVehicle } from '@boomgate/contracts/approved-vehicles';

import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api-client';
import { contractMessage, useTranslation } from '@/lib/i18n';
import { formatPlate } from '@/lib/plates';

import { useUpdateTrailers } from '../api/approved-vehicles';

import { type TrailerValues, toTrailers, trailerValuesOf } from './trailer-values';
import { TrailersEditor } from './trailers-editor';

/** Issue 21: edits a registered vehicle's trailers (back office and admins). */
export function EditTrailersDialog({
  vehicle,
  onClose,
}: {
  vehicle: ApprovedVehicle;
  onClose: () => void;
}) {
  const { t } = useTranslation('vehicles');
  const updateTrailers = useUpdateTrailers();
  const [values, setValues] = useState<TrailerValues[]>(() => trailerValuesOf(vehicle));
  const [problem, setProblem] = useState<string | null>(null);
  const plate = formatPlate(vehicle.plateNumber);

  const save = () => {
    const result = toTrailers(values);
    if ('problem' in result) {
      const { needsPlate, detail } = result.problem;
      setProblem(
        needsPlate
          ? t('trailers.needsPlate', { n: needsPlate })
          : (detail && contractMessage(detail)) || t('trailers.invalid'),
      );
      return;
    }
    setProblem(null);
    updateTrailers.mutate(
      { id: vehicle.id, body: { trailers: result.trailers } },
      {
        onSuccess: () => {
          toast({
            title: t('trailers.saved'),
            description: t('trailers.savedDescription', { plate }),
          });
          onClose();
        },
        onError: (error) => setProblem(getErrorMessage(error, t('trailers.saveFailed'))),
      },
    );
  };

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>{t('trailers.editTitle', { plate })}</DialogTitle>
          <DialogDescription>{t('trailers.editDescription')}</DialogDescription>
        </DialogHeader>
        <TrailersEditor value={values} onChange={setValues} />
        {problem && (
          <p role="alert" className="text-sm text-destructive">
            {problem}
          </p>
        )}
        <DialogFooter>
          <Button type="button" variant="outline" onClick={onClose}>
            {t('cancel')}
          </Button>
          <Button type="button" disabled={updateTrailers.isPending} onClick={save}>
            {updateTrailers.isPending && <Spinner />}
            {t('trailers.save')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
