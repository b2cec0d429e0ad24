import { useMutation } from '@tanstack/react-query';
import { CameraIcon, CheckCircle2Icon, RefreshCwIcon } from 'lucide-react';
import { useState } from 'react';

import type { IncomingRequestEntry } from '@boomgate/contracts/webhooks';

import { CameraCaptureDialog } from '@/components/camera/camera-capture-dialog';
import { InductionValidityNotice } from '@/components/induction-validity-notice';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
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
import { readDocument } from '@/lib/api/ocr';

import { useProcessRequest } from '../api/incoming-requests';

import {
  type Capture,
  captureFromRead,
  type Captures,
  completion,
  defaultTab,
  existingFields,
  type LabelledField,
  TABS,
  type TabDefinition,
  type TabKey,
} from './process-entry';

type TabState = 'idle' | 'processing' | 'error';

/** Spec §8, when the server queued the callback. */
const CALLBACK_SENT = 'Entry processed and callback sent';
/** The spec's toast would claim a callback; without a usable callback URL none is sent. */
const NO_CALLBACK = 'Entry processed. No callback was sent: no active callback URL is set up.';

function Fields({ fields }: { fields: LabelledField[] }) {
  return (
    <dl className="grid gap-1 text-sm">
      {fields.map(({ label, value }) => (
        <div key={label} className="flex justify-between gap-4 border-b py-1">
          <dt className="text-muted-foreground">{label}</dt>
          <dd className="text-right font-medium">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function TabPanel({
  tab,
  existing,
  capture,
  state,
  onCapture,
}: {
  tab: TabDefinition;
  existing: LabelledField[];
  capture: Capture | undefined;
  state: TabState;
  onCapture: () => void;
}) {
  if (state === 'processing') {
    return (
      <p
        role="status"
        className="flex items-center justify-center gap-2 py-8 text-muted-foreground"
      >
        <Spinner />
        Processing image with AI...
      </p>
    );
  }
  return (
    <div className="grid gap-4">
      {capture ? (
        <Alert variant="success" data-testid={`extracted-${tab.key}`}>
          <AlertTitle>✓ Data Extracted</AlertTitle>
          <AlertDescription>
            <Fields fields={capture.fields} />
          </AlertDescription>
        </Alert>
      ) : existing.length > 0 ? (
        <div className="grid gap-2 rounded-lg border p-4" data-testid={`existing-${tab.key}`}>
          <div className="flex items-center justify-between gap-2">
            <h4 className="font-medium">Existing {tab.existingNoun} Data</h4>
            <Badge variant="secondary">From Webhook</Badge>
          </div>
          <Fields fields={existing} />
        </div>
      ) : null}
      {state === 'error' && (
        <Alert variant="destructive">
          <AlertDescription>Failed to extract data. Please try again.</AlertDescription>
        </Alert>
      )}
      {capture || existing.length > 0 ? (
        <Button variant="outline" onClick={onCapture}>
          <RefreshCwIcon aria-hidden />
          Re-capture
        </Button>
      ) : (
        <Button onClick={onCapture}>
          <CameraIcon aria-hidden />
          {tab.captureLabel}
        </Button>
      )}
      {tab.optional && (
        <p className="text-center text-xs text-muted-foreground">
          Optional: this does not hold up completion.
        </p>
      )}
    </div>
  );
}

/** Spec §2 "Process Vehicle Entry dialog": capture the missing documents, then complete. */
export function ProcessEntryDialog({
  entry,
  onClose,
}: {
  entry: IncomingRequestEntry;
  onClose: () => void;
}) {
  const [activeTab, setActiveTab] = useState<TabKey>(() => defaultTab(entry));
  const [captures, setCaptures] = useState<Captures>({});
  const [states, setStates] = useState<Partial<Record<TabKey, TabState>>>({});
  const [cameraTab, setCameraTab] = useState<TabDefinition | null>(null);
  const processRequest = useProcessRequest();
  const reading = useMutation({
    mutationFn: ({ tab, image }: { tab: TabDefinition; image: string }) =>
      readDocument(image, tab.ocrType),
  });

  const { missing, payload, payloadMissing } = completion(entry, captures);
  const canComplete = missing.length === 0;

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
      { id: entry.id, body: { ...payload, expectedCompletedAt: entry.completedAt } },
      {
        onSuccess: ({ callbackQueued }) => {
          toast({
            title: 'Success',
            description: callbackQueued ? CALLBACK_SENT : NO_CALLBACK,
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
                />
              </TabsContent>
            ))}
          </Tabs>
          <InductionValidityNotice idNumber={payload.driverIdNumber} />
          <DialogFooter className="items-center sm:justify-between">
            <p
              data-testid="required-status"
              className={canComplete ? 'text-sm text-success' : 'text-sm text-muted-foreground'}
            >
              {canComplete ? '✓ All required fields completed' : `Required: ${missing.join(', ')}`}
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
