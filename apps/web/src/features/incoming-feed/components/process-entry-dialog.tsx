import { useMutation } from '@tanstack/react-query';
import { CheckCircle2Icon } from 'lucide-react';
import { useState } from 'react';

import type { IncomingRequestEntry } from '@boomgate/contracts/webhooks';

import { CameraCaptureDialog } from '@/components/camera/camera-capture-dialog';
import { InductionValidityNotice } from '@/components/induction-validity-notice';
import type { TrailerData } from '@/components/trailers-panel';
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
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api-client';
import { i18next } from '@/lib/i18n';
import { readDocument } from '@/lib/api/ocr';
import { unconfirmed } from '@/lib/corrections';

import { useProcessRequest } from '../api/incoming-requests';

import {
  type Capture,
  captureFromEdits,
  captureFromRead,
  type Captures,
  completion,
  defaultTab,
  EDITABLE,
  existingFields,
  startTabEdits,
  TABS,
  type TabDefinition,
  type TabEdits,
  type TabKey,
  tabCorrections,
} from './process-entry';
import { TabPanel, type TabState } from './process-entry-tab-panel';
import { ProcessEntryTrailers, storedTrailers, trailerFields } from './process-entry-trailers';

/** Spec §8, when the server queued the callback. */
const CALLBACK_SENT = 'Entry processed and callback sent';
/** The spec's toast would claim a callback; without a usable callback URL none is sent. */
const NO_CALLBACK = 'Entry processed. No callback was sent: no active callback URL is set up.';

/** Spec §2 "Process Vehicle Entry dialog": capture the missing documents, then complete. */
export function ProcessEntryDialog({
  entry,
  onClose,
}: {
  entry: IncomingRequestEntry;
  onClose: () => void;
}) {
  const [activeTab, setActiveTab] = useState<TabKey>(() => defaultTab(entry));
  const [readCaptures, setCaptures] = useState<Captures>({});
  const [tabEdits, setTabEdits] = useState<Partial<Record<TabKey, TabEdits>>>({});
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
    return unconfirmed(edited.edits).map(
      (name) => `${labels.find((field) => field.name === name)?.label ?? name} (${tab.label})`,
    );
  });
  const canComplete = missing.length === 0 && toConfirm.length === 0;
  const corrections = TABS.flatMap((tab) => {
    const edited = tabEdits[tab.key];
    return edited ? tabCorrections(edited) : [];
  });

  const updateEdits = (key: TabKey, change: (edited: TabEdits) => TabEdits) =>
    setTabEdits((previous) => {
      const edited = previous[key];
      return edited ? { ...previous, [key]: change(edited) } : previous;
    });
  const editField = (key: TabKey, name: string, value: string) =>
    updateEdits(key, (edited) => {
      const field = edited.edits.fields[name];
      if (!field) return edited;
      return {
        ...edited,
        edits: { ...edited.edits, fields: { ...edited.edits.fields, [name]: { ...field, value } } },
      };
    });
  const confirmField = (key: TabKey, name: string) =>
    updateEdits(key, (edited) => {
      const field = edited.edits.fields[name];
      if (!field) return edited;
      return {
        ...edited,
        edits: {
          ...edited.edits,
          fields: { ...edited.edits.fields, [name]: { ...field, confirmed: true } },
        },
      };
    });
  const enterManually = (tab: TabDefinition) => {
    const started = startTabEdits(tab.key, null, null);
    if (started) setTabEdits((previous) => ({ ...previous, [tab.key]: started }));
  };

  const handleImage = (tab: TabDefinition, image: string) => {
    setCameraTab(null);
    setStates((previous) => ({ ...previous, [tab.key]: 'processing' }));
    const fail = (description: string) => {
      setStates((previous) => ({ ...previous, [tab.key]: 'error' }));
      toast({ variant: 'destructive', title: 'Error', description });
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
            fail('Failed to process image');
            return;
          }
          setCaptures((previous) => ({ ...previous, [tab.key]: capture }));
          const started = startTabEdits(tab.key, response, capture);
          setTabEdits((previous) => ({ ...previous, [tab.key]: started ?? undefined }));
          setStates((previous) => ({ ...previous, [tab.key]: 'idle' }));
          toast({ title: 'Captured', description: `${tab.label} processed successfully` });
        },
        onError: (error) => fail(getErrorMessage(error, 'Failed to process image')),
      },
    );
  };

  const handleComplete = () => {
    if (payloadMissing.length > 0) {
      toast({
        variant: 'destructive',
        title: 'Missing Required Fields',
        description: `Please complete: ${payloadMissing.join(', ')}`,
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
          // Issue 21: the ticket read here, so the server matches its trailers with the rig.
          ...(tabEdits.weighbridge?.edits.captureId
            ? { weighbridgeTicketCaptureId: tabEdits.weighbridge.edits.captureId }
            : {}),
        },
      },
      {
        onSuccess: ({ callbackQueued, warnings }) => {
          const status = callbackQueued ? CALLBACK_SENT : NO_CALLBACK;
          toast({
            title: 'Success',
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
            title: 'Error',
            description: getErrorMessage(error, 'Failed to complete'),
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
            <DialogTitle>Process Vehicle Entry</DialogTitle>
            <DialogDescription>
              {entry.plateNumber ?? 'No plate'}
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
                        aria-label="Completed"
                      />
                    )}
                    {tab.label}
                    {tab.optional && (
                      <span className="text-xs text-muted-foreground">(optional)</span>
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
          <DialogFooter className="items-center sm:justify-between">
            <p
              data-testid="required-status"
              className={canComplete ? 'text-sm text-success' : 'text-sm text-muted-foreground'}
            >
              {canComplete
                ? '✓ All required fields completed'
                : missing.length > 0
                  ? `Required: ${missing.join(', ')}`
                  : `Confirm or correct: ${toConfirm.join(', ')}`}
            </p>
            <div className="flex gap-2">
              <Button variant="outline" onClick={onClose}>
                Cancel
              </Button>
              <Button onClick={handleComplete} disabled={!canComplete || isBusy}>
                {processRequest.isPending && <Spinner />}
                {canComplete ? 'Complete Processing' : 'Fill Required Fields'}
              </Button>
            </div>
          </DialogFooter>
        </DialogContent>
      </Dialog>
      <CameraCaptureDialog
        open={cameraTab !== null}
        onClose={() => setCameraTab(null)}
        onCapture={(image) => cameraTab && handleImage(cameraTab, image)}
        title={cameraTab?.label ?? ''}
        description={cameraTab ? `Capture the ${cameraTab.label.toLowerCase()}.` : undefined}
        guide={cameraTab?.guide ?? 'none'}
        initialFacingMode={cameraTab?.key === 'face' ? 'user' : 'environment'}
        captureLabel={cameraTab?.captureLabel}
      />
    </>
  );
}
