import { useMutation } from '@tanstack/react-query';
import { CheckCircle2Icon } from 'lucide-react';
import { useState } from 'react';

import type { IncomingRequestEntry } from '@boomgate/contracts/webhooks';

import { CameraCaptureDialog } from '@/components/camera/camera-capture-dialog';
import { InductionValidityNotice } from '@/components/induction-validity-notice';
import type { TrailerData } from '@/components/trailers-panel';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api-client';
import { i18next } from '@/lib/i18n';
import { readDocument } from '@/lib/api/ocr';
import { unconfirmed } from '@/lib/corrections';
import { useTranslation } from '@/lib/i18n';

import { useProcessRequest } from '../api/incoming-requests';

import {
  type Capture,
  captureFromEdits,
  captureFromRead,
  type Captures,
  citedCaptures,
  completion,
  defaultTab,
  EDITABLE,
  existingFields,
  startTabEdits,
  TABS,
  type TabDefinition,
  type TabKey,
  tabCorrections,
} from './process-entry';
import { fieldLabel, tabLabel, tabList } from './incoming-feed-texts';
import { CompletionFooter } from './process-entry-tab-panel';
import { TabPanel, type TabState } from './process-entry-tab-panel';
import { ProcessEntryTrailers, storedTrailers, trailerFields } from './process-entry-trailers';
import { useTabEdits } from './use-tab-edits';

/** Spec §2 "Process Vehicle Entry dialog": capture the missing documents, then complete. */
export function ProcessEntryDialog({
  entry,
  onClose,
}: {
  entry: IncomingRequestEntry;
  onClose: () => void;
}) {
  const { t } = useTranslation('incomingFeed');
  const [activeTab, setActiveTab] = useState<TabKey>(() => defaultTab(entry));
  const [readCaptures, setCaptures] = useState<Captures>({});
  const { tabEdits, setTabEdits, editField, confirmField, enterManually } = useTabEdits();
  const [states, setStates] = useState<Partial<Record<TabKey, TabState>>>({});
  const [cameraTab, setCameraTab] = useState<TabDefinition | null>(null);
  /** Issue 21: the rig's trailers (an edit starts from the stored ones), checked by the server. */
  const [trailers, setTrailers] = useState<TrailerData[]>(() => storedTrailers(entry));
  const processRequest = useProcessRequest();
  const reading = useMutation({
    mutationFn: ({ tab, image }: { tab: TabDefinition; image: string }) =>
      readDocument(image, tab.ocrType),
  });

  // Issue 15: what the back office typed stands in for what was read; both go to the server.
  const captures: Captures = {};
  for (const tab of TABS) {
    const edited = tabEdits[tab.key];
    const read = readCaptures[tab.key];
    const capture = edited ? captureFromEdits(tab.key, edited, read ?? null) : read;
    if (capture) captures[tab.key] = capture;
  }
  const { missing, payload, payloadMissing } = completion(entry, captures);
  // Uncertain fields still as read: confirmed or corrected before the entry completes.
  const toConfirm = TABS.flatMap((tab) => {
    const edited = tabEdits[tab.key];
    if (!edited) return [];
    const labels = EDITABLE[tab.key]?.fields ?? [];
    return unconfirmed(edited.edits).map((name) =>
      t('dialog.fieldInTab', {
        field: fieldLabel(t, labels.find((field) => field.name === name)?.label ?? name),
        tab: tabLabel(t, tab.label),
      }),
    );
  });
  const canComplete = missing.length === 0 && toConfirm.length === 0;
  const corrections = TABS.flatMap((tab) => {
    const edited = tabEdits[tab.key];
    return edited ? tabCorrections(edited) : [];
  });

  const handleImage = (tab: TabDefinition, image: string) => {
    setCameraTab(null);
    setStates((previous) => ({ ...previous, [tab.key]: 'processing' }));
    const fail = (description: string) => {
      setStates((previous) => ({ ...previous, [tab.key]: 'error' }));
      toast({ variant: 'destructive', title: t('toasts.error'), description });
    };
    reading.mutate(
      { tab, image },
      {
        onSuccess: (response) => {
          let capture: Capture | null = null;
          try {
            capture = captureFromRead(tab.key, response);
          } catch {
            capture = null;
          }
          if (!capture) {
            fail(t('toasts.imageFailed'));
            return;
          }
          setCaptures((previous) => ({ ...previous, [tab.key]: capture }));
          const started = startTabEdits(tab.key, response, capture);
          setTabEdits((previous) => ({ ...previous, [tab.key]: started ?? undefined }));
          setStates((previous) => ({ ...previous, [tab.key]: 'idle' }));
          toast({
            title: t('toasts.captured'),
            description: t('toasts.processed', { document: tabLabel(t, tab.label) }),
          });
        },
        onError: (error) => fail(getErrorMessage(error, t('toasts.imageFailed'))),
      },
    );
  };

  const handleComplete = () => {
    if (payloadMissing.length > 0) {
      toast({
        variant: 'destructive',
        title: t('toasts.missingTitle'),
        description: t('toasts.missingDescription', { list: tabList(t, payloadMissing) }),
      });
      return;
    }
    processRequest.mutate(
      // The entry as this dialog was opened on: if someone processed it since, the server
      // answers 409 and this dialog shows its message instead of overwriting their work.
      {
        id: entry.id,
        body: {
          ...payload,
          expectedCompletedAt: entry.completedAt,
          ...(corrections.length > 0 ? { corrections } : {}),
          ...trailerFields(trailers),
          // Issue 21: the documents read here, judged by the server from its stored readings.
          ...citedCaptures(tabEdits),
        },
      },
      {
        onSuccess: ({ callbackQueued, warnings }) => {
          // Spec §8's toast when the server queued the callback; without a usable callback URL
          // none is sent, and the toast does not claim one.
          const status = callbackQueued ? t('toasts.callbackSent') : t('toasts.noCallback');
          toast({
            title: t('toasts.success'),
            // Issue 21: what the rig check found (a ticket naming a trailer the rig lacks).
            description:
              warnings.length > 0
                ? i18next.t('common:trailers.processedWithWarnings', {
                    status,
                    warnings: warnings.map((warning) => warning.message).join(' '),
                  })
                : status,
          });
          onClose();
        },
        onError: (error) =>
          toast({
            variant: 'destructive',
            title: t('toasts.error'),
            description: getErrorMessage(error, t('toasts.completeFailed')),
          }),
      },
    );
  };

  const isBusy = processRequest.isPending || reading.isPending;

  return (
    <>
      <Dialog
        open
        onOpenChange={(open) => {
          if (!open && !cameraTab) onClose();
        }}
      >
        <DialogContent className="sm:max-w-3xl">
          <DialogHeader>
            <DialogTitle>{t('dialog.title')}</DialogTitle>
            <DialogDescription>
              {entry.plateNumber ?? t('noPlate')}
              {entry.referenceNumber ? ` · ${entry.referenceNumber}` : ''}
            </DialogDescription>
          </DialogHeader>
          <Tabs value={activeTab} onValueChange={(value) => setActiveTab(value as TabKey)}>
            {/* Five tabs do not fit one row on a phone, nor with their checks and "(optional)"
                in the desktop dialog: they wrap onto rows of their own height, every tab in view. */}
            <TabsList className="h-auto w-full flex-wrap justify-start gap-1 max-md:h-auto">
              {TABS.map((tab) => {
                const done =
                  Boolean(captures[tab.key]) || existingFields(entry, tab.key).length > 0;
                return (
                  <TabsTrigger
                    key={tab.key}
                    value={tab.key}
                    className="h-auto min-h-8 flex-auto whitespace-normal py-1.5 max-md:min-h-11"
                  >
                    {done && (
                      <CheckCircle2Icon
                        className="text-success"
                        role="img"
                        aria-label={t('dialog.completed')}
                      />
                    )}
                    {tabLabel(t, tab.label)}
                    {tab.optional && (
                      <span className="text-xs text-muted-foreground">{t('dialog.optional')}</span>
                    )}
                  </TabsTrigger>
                );
              })}
            </TabsList>
            {TABS.map((tab) => (
              <TabsContent key={tab.key} value={tab.key}>
                <TabPanel
                  tab={tab}
                  existing={existingFields(entry, tab.key)}
                  capture={captures[tab.key]}
                  state={states[tab.key] ?? 'idle'}
                  onCapture={() => setCameraTab(tab)}
                  edits={tabEdits[tab.key]}
                  onEdit={(name, value) => editField(tab.key, name, value)}
                  onConfirm={(name) => confirmField(tab.key, name)}
                  onEnterManually={() => enterManually(tab)}
                />
              </TabsContent>
            ))}
          </Tabs>
          <ProcessEntryTrailers
            trailers={trailers}
            truckPlate={payload.plateNumber}
            canEdit={!processRequest.isPending}
            onChange={setTrailers}
          />
          <InductionValidityNotice idNumber={payload.driverIdNumber} />
          <CompletionFooter
            canComplete={canComplete}
            missing={missing}
            toConfirm={toConfirm}
            isSaving={processRequest.isPending}
            isBusy={isBusy}
            onCancel={onClose}
            onComplete={handleComplete}
          />
        </DialogContent>
      </Dialog>
      <CameraCaptureDialog
        open={cameraTab !== null}
        onClose={() => setCameraTab(null)}
        onCapture={(image) => cameraTab && handleImage(cameraTab, image)}
        title={cameraTab ? tabLabel(t, cameraTab.label) : ''}
        description={cameraTab ? t(`tabs.${cameraTab.key}.cameraDescription`) : undefined}
        guide={cameraTab?.guide ?? 'none'}
        // Spec §9: the rear camera by default (the back office photographs a driver or a
        // document); the last camera chosen for each tab is remembered on this device.
        rememberAs={cameraTab ? `incoming-feed-${cameraTab.key}` : undefined}
        captureLabel={cameraTab ? t(`tabs.${cameraTab.key}.capture`) : undefined}
      />
    </>
  );
}
