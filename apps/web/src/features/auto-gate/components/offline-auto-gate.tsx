import {
  CheckCircle2Icon,
  CircleAlertIcon,
  CloudOffIcon,
  RotateCcwIcon,
  ScanFaceIcon,
} from 'lucide-react';
import { type FormEvent, lazy, Suspense, useState } from 'react';

import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toast } from '@/hooks/use-toast';
import { useTranslation } from '@/lib/i18n';
import { getOfflineDb } from '@/lib/offline/offline-db';
import { queueOfflineExit } from '@/lib/offline/offline-exits';
import { getQueueUserId, queueAction } from '@/lib/offline/offline-sync';
import { findVehicle, type OfflineVehicle, readVehicleCache } from '@/lib/offline/vehicle-cache';
import { formatPlate, normalisePlate } from '@/lib/plates';

import { AUTO_GATE_STATUS, PENDING_APPROVAL_STATUS } from './auto-gate-machine';
import { statusText } from './auto-gate-texts';

const CameraCaptureDialog = lazy(() =>
  import('@/components/camera/camera-capture-dialog').then((m) => ({
    default: m.CameraCaptureDialog,
  })),
);

/** Recorded with every offline decision, so the entry is flagged on the server. */
export const OFFLINE_GRANT_NOTE =
  "Recorded offline from the device's approved-vehicle list: face verification pending";
export const OFFLINE_REFUSAL_NOTE = "Refused offline from the device's approved-vehicle list";

type Outcome =
  | { kind: 'found'; vehicle: OfflineVehicle; attemptId: string }
  | { kind: 'refused'; plate: string; status: string }
  | { kind: 'granted'; vehicle: OfflineVehicle }
  | { kind: 'no-list' }
  | { kind: 'exit-saved'; plate: string }
  | { kind: 'exit-unknown'; plate: string };

const today = () => new Date().toLocaleDateString('en-CA');

/**
 * Issue 18: the automated gate while the server cannot be reached. Plate reading and face matching
 * run on the server, so the guard types the plate, the device decides from its cached list of
 * approved vehicles, and the face (when captured) goes with the queued entry as "pending
 * verification": the server compares it when the entry reaches it, and its verdict replaces this one.
 */
export function OfflineAutoGate() {
  const { t } = useTranslation('offline');
  const { t: tGate } = useTranslation('autoGate');
  const [plate, setPlate] = useState('');
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [faceImage, setFaceImage] = useState<string | null>(null);
  const [cameraOpen, setCameraOpen] = useState(false);
  const [busy, setBusy] = useState(false);

  const reset = () => {
    setPlate('');
    setOutcome(null);
    setFaceImage(null);
  };

  const record = async (action: Parameters<typeof queueAction>[0]) => {
    try {
      await queueAction(action);
      return true;
    } catch (error) {
      toast({
        variant: 'destructive',
        title: tGate('toasts.loggingFailed'),
        description: error instanceof Error ? error.message : tGate('offline.couldNotSave'),
      });
      return false;
    }
  };

  const check = async (event: FormEvent) => {
    event.preventDefault();
    const plateNumber = normalisePlate(plate);
    const db = await getOfflineDb();
    const userId = getQueueUserId();
    if (!plateNumber || !db || userId === null) return;
    setBusy(true);
    try {
      const cached = await readVehicleCache(db, userId);
      if (!cached) {
        setOutcome({ kind: 'no-list' });
        return;
      }
      const vehicle = findVehicle(cached.vehicles, plateNumber, today());
      if (vehicle?.isActive) {
        setOutcome({ kind: 'found', vehicle, attemptId: crypto.randomUUID() });
        return;
      }
      // Every attempt is logged (issue 14), refusals too: queued like an entry.
      const status = !vehicle
        ? AUTO_GATE_STATUS.notRegistered
        : vehicle.pendingApproval
          ? PENDING_APPROVAL_STATUS
          : AUTO_GATE_STATUS.expired;
      await record({
        id: crypto.randomUUID(),
        path: '/api/auto-gate/grant-entry',
        body: {
          category: 'contracted',
          plateNumber: vehicle?.plateNumber ?? plateNumber,
          vehicleApproved: false,
          faceVerified: false,
          entryGranted: false,
          refusalReason: vehicle ? 'registration_expired' : 'not_registered',
          warnings: [OFFLINE_REFUSAL_NOTE],
          recordedOffline: true,
          capturedAt: new Date().toISOString(),
        },
      });
      setOutcome({ kind: 'refused', plate: plateNumber, status });
    } finally {
      setBusy(false);
    }
  };

  const grant = async (vehicle: OfflineVehicle, attemptId: string) => {
    setBusy(true);
    const saved = await record({
      id: attemptId,
      path: '/api/auto-gate/grant-entry',
      body: {
        category: 'contracted',
        plateNumber: vehicle.plateNumber,
        vehicleApproved: true,
        faceVerified: false,
        matchScore: null,
        entryGranted: true,
        warnings: [OFFLINE_GRANT_NOTE],
        // The server decides again on arrival (and under `record_only` refuses, with an alert).
        recordedOffline: true,
        capturedAt: new Date().toISOString(),
      },
      images: { driverFaceImage: faceImage },
    });
    setBusy(false);
    if (saved) setOutcome({ kind: 'granted', vehicle });
  };

  /** Issue 18: the exit of a vehicle admitted offline or on the saved On Site list. */
  const recordExit = async () => {
    const plateNumber = normalisePlate(plate);
    if (!plateNumber) return;
    setBusy(true);
    try {
      const saved = await queueOfflineExit(plateNumber);
      setOutcome({ kind: saved ? 'exit-saved' : 'exit-unknown', plate: plateNumber });
    } catch (error) {
      toast({
        variant: 'destructive',
        title: t('exitQueuedTitle'),
        description: error instanceof Error ? error.message : String(error),
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card data-testid="offline-auto-gate">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <CloudOffIcon aria-hidden className="size-5" />
          {tGate('offline.title')}
        </CardTitle>
        <CardDescription>{tGate('offline.description')}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {outcome === null || outcome.kind === 'no-list' || outcome.kind === 'exit-unknown' ? (
          <form className="grid gap-2" onSubmit={(event) => void check(event)}>
            <Label htmlFor="offline-plate">{tGate('offline.plateNumber')}</Label>
            <Input
              id="offline-plate"
              autoComplete="off"
              autoCapitalize="characters"
              value={plate}
              onChange={(event) => setPlate(event.target.value)}
            />
            <Button type="submit" size="lg" disabled={busy || normalisePlate(plate) === ''}>
              {tGate('offline.checkPlate')}
            </Button>
            <Button
              type="button"
              variant="outline"
              size="lg"
              disabled={busy || normalisePlate(plate) === ''}
              onClick={() => void recordExit()}
            >
              {t('recordExit')}
            </Button>
            {outcome?.kind === 'exit-unknown' && (
              <p role="alert" className="text-sm text-destructive">
                {t('exitNotOnSite', { plate: formatPlate(outcome.plate) })}
              </p>
            )}
            {outcome?.kind === 'no-list' && (
              <p role="alert" className="text-sm text-destructive">
                {tGate('offline.noList')}
              </p>
            )}
          </form>
        ) : outcome.kind === 'found' ? (
          <div className="grid gap-3" data-testid="offline-vehicle">
            <dl className="text-sm">
              <Row
                label={tGate('details.plateNumber')}
                value={formatPlate(outcome.vehicle.plateNumber)}
              />
              <Row label={tGate('details.driver')} value={outcome.vehicle.driverName} />
              <Row label={tGate('details.company')} value={outcome.vehicle.company ?? '-'} />
              <Row
                label={tGate('details.facialMatch')}
                value={tGate('offline.pendingVerification')}
              />
            </dl>
            {outcome.vehicle.hasDriverPhoto && (
              <Button variant="outline" size="lg" onClick={() => setCameraOpen(true)}>
                <ScanFaceIcon aria-hidden />
                {faceImage ? tGate('offline.captureFaceAgain') : tGate('offline.captureFace')}
              </Button>
            )}
            <Button
              size="lg"
              disabled={busy}
              onClick={() => void grant(outcome.vehicle, outcome.attemptId)}
            >
              {tGate('offline.grantEntry')}
            </Button>
            <Button variant="ghost" onClick={reset}>
              {tGate('offline.cancel')}
            </Button>
          </div>
        ) : outcome.kind === 'exit-saved' ? (
          <div className="grid gap-3 text-center" data-testid="offline-exit-saved">
            <CheckCircle2Icon aria-hidden className="mx-auto size-12 text-success" />
            <p role="status" className="text-sm">
              {t('exitSaved', { plate: formatPlate(outcome.plate) })}
            </p>
            <Button size="lg" onClick={reset}>
              <RotateCcwIcon aria-hidden />
              {tGate('nextVehicle')}
            </Button>
          </div>
        ) : outcome.kind === 'granted' ? (
          <div className="grid gap-3 text-center" data-testid="offline-granted">
            <CheckCircle2Icon aria-hidden className="mx-auto size-12 text-success" />
            <p role="status" className="text-lg font-semibold">
              {statusText(tGate, AUTO_GATE_STATUS.approved)}
            </p>
            <p className="text-sm text-muted-foreground">
              {tGate('offline.grantedDetail', {
                driver: outcome.vehicle.driverName,
                plate: formatPlate(outcome.vehicle.plateNumber),
              })}
            </p>
            <Button size="lg" onClick={reset}>
              <RotateCcwIcon aria-hidden />
              {tGate('nextVehicle')}
            </Button>
          </div>
        ) : (
          <div className="grid gap-3 text-center" data-testid="offline-refused">
            <CircleAlertIcon aria-hidden className="mx-auto size-12 text-destructive" />
            <p role="status" className="text-lg font-semibold">
              {statusText(tGate, outcome.status)}
            </p>
            <p className="font-mono text-xl font-bold">{formatPlate(outcome.plate)}</p>
            <Button size="lg" variant="outline" onClick={reset}>
              {tGate('scanAgain')}
            </Button>
          </div>
        )}
      </CardContent>
      <Suspense fallback={null}>
        <CameraCaptureDialog
          open={cameraOpen}
          onClose={() => setCameraOpen(false)}
          onCapture={(image) => {
            setFaceImage(image);
            setCameraOpen(false);
          }}
          title={statusText(tGate, AUTO_GATE_STATUS.verifyDriver)}
          description={tGate('camera.faceDescriptionNoName')}
          guide="oval"
          rememberAs="auto-gate-face"
          captureLabel={tGate('camera.captureFace')}
        />
      </Suspense>
    </Card>
  );
}

function Row({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex justify-between gap-4 border-b py-2 last:border-b-0">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="text-right font-semibold">{value}</dd>
    </div>
  );
}
