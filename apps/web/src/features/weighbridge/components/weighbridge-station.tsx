import { useMutation } from '@tanstack/react-query';
import { KeyboardIcon, ScaleIcon, ScanLineIcon } from 'lucide-react';
import { useState } from 'react';

import type { CorrectionInput } from '@boomgate/contracts/corrections';

import { CameraCaptureDialog } from '@/components/camera/camera-capture-dialog';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api-client';
import {
  type TicketReading,
  ticketBody,
  ticketFromFields,
  useSaveWeighbridgeTicket,
} from '@/lib/api/weighbridge-tickets';
import { useTranslation } from '@/lib/i18n';

import { ExtractedTicket } from './extracted-ticket';
import { RecentTickets } from './recent-tickets';
import { InvalidOcrResponse, type Scan, scanTicket } from './ticket-scan';

/** Spec §2 Weighbridge Station: scan a ticket, show what was read, save it. */
export function WeighbridgeStation() {
  const { t } = useTranslation('weighbridge');
  const [isCameraOpen, setIsCameraOpen] = useState(false);
  const [scan, setScan] = useState<Scan | null>(null);
  /** After a failed or empty read the guard may type the ticket instead (issue 15). */
  const [canEnterManually, setCanEnterManually] = useState(false);
  const saveTicket = useSaveWeighbridgeTicket();
  const scanning = useMutation({ mutationFn: scanTicket });

  const handleCapture = (image: string) => {
    setIsCameraOpen(false);
    setScan(null);
    scanning.mutate(image, {
      onSuccess: (scanned) => {
        if (!scanned) {
          setCanEnterManually(true);
          toast({
            variant: 'destructive',
            title: t('toast.noData'),
            description: t('toast.noDataHint'),
          });
          return;
        }
        const { reading, captureId, typed } = scanned;
        setScan({ image, captureId, reading, typed });
        if (reading.ticketNumber === null) {
          toast({ title: t('extracted.partial'), description: t('extracted.noTicketNumber') });
        } else {
          toast({
            title: t('toast.scanned'),
            description: t('toast.scannedDetail', { number: reading.ticketNumber }),
          });
        }
      },
      onError: (error) => {
        setCanEnterManually(true);
        toast({
          variant: 'destructive',
          title: t('toast.failed'),
          description:
            error instanceof InvalidOcrResponse
              ? t('toast.invalidOcr')
              : getErrorMessage(error, t('toast.failedDetail')),
        });
      },
    });
  };

  const handleSave = (reading: TicketReading, corrections: CorrectionInput[]) => {
    if (!scan) return;
    saveTicket.mutate(
      { ...ticketBody(reading, scan.image, scan.captureId), corrections },
      {
        onSuccess: () => {
          toast({
            title: t('toast.saved'),
            description: reading.ticketNumber
              ? t('toast.savedDetail', { number: reading.ticketNumber })
              : t('toast.savedNoNumber'),
          });
          setScan(null);
          setCanEnterManually(false);
        },
        onError: (error) =>
          toast({
            variant: 'destructive',
            title: t('toast.saveFailed'),
            description: getErrorMessage(error, t('toast.saveFailedDetail')),
          }),
      },
    );
  };

  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-6">
      <PageHeader title={t('title')} description={t('description')} />
      {scan ? (
        <ExtractedTicket
          scan={scan}
          isSaving={saveTicket.isPending}
          onSave={handleSave}
          onScanAgain={() => {
            setScan(null);
            setIsCameraOpen(true);
          }}
        />
      ) : (
        <Card>
          <CardContent className="flex flex-col items-center gap-4 py-6 text-center">
            <ScaleIcon aria-hidden className="size-12 text-muted-foreground" />
            {scanning.isPending ? (
              <p role="status" className="flex items-center gap-2 text-muted-foreground">
                <Spinner />
                {t('processing')}
              </p>
            ) : (
              <>
                <p className="max-w-md text-sm text-muted-foreground">{t('intro')}</p>
                <div className="flex flex-wrap justify-center gap-2">
                  <Button size="lg" onClick={() => setIsCameraOpen(true)}>
                    <ScanLineIcon aria-hidden />
                    {t('scanTicket')}
                  </Button>
                  {canEnterManually && (
                    <Button
                      size="lg"
                      variant="outline"
                      onClick={() =>
                        setScan({
                          image: null,
                          captureId: null,
                          reading: ticketFromFields({}),
                          typed: null,
                        })
                      }
                    >
                      <KeyboardIcon aria-hidden />
                      {t('enterManually')}
                    </Button>
                  )}
                </div>
              </>
            )}
          </CardContent>
        </Card>
      )}
      <RecentTickets />
      <CameraCaptureDialog
        open={isCameraOpen}
        onClose={() => setIsCameraOpen(false)}
        onCapture={handleCapture}
        title={t('camera.title')}
        description={t('camera.description')}
        guide="page"
        captureLabel={t('camera.capture')}
        rememberAs="weighbridge-ticket"
      />
    </div>
  );
}
