import {
  CheckCircle2Icon,
  CircleAlertIcon,
  type LucideIcon,
  RotateCcwIcon,
  ScanFaceIcon,
  ScanLineIcon,
  ShieldCheckIcon,
  UserPlusIcon,
} from 'lucide-react';
import { Link } from 'wouter';

import type { GateOpenResult } from '@boomgate/contracts/barriers';

import { EntryWarningsPanel } from '@/components/entry-warnings';
import { InductionValidityNotice } from '@/components/induction-validity-notice';
import { PinOverrideButton } from '@/components/entry-override';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { cn } from '@/lib/cn';
import { useTranslation } from '@/lib/i18n';
import { formatPlate } from '@/lib/plates';

import {
  AUTO_GATE_STATUS,
  PIN_OVERRIDE_STATUS,
  type AutoGatePhase,
  type AutoGateState,
  canCorrectPlate,
  canRetakeFace,
} from './auto-gate-machine';
import { CorrectPlateAction } from './plate-check-panel';

/** The Auto Gate's panels: the steps, progress, the approved and the refused outcomes. */

const STEPS: { title: string; description: string; icon: LucideIcon; phases: AutoGatePhase[] }[] = [
  {
    title: 'Step 1: NPR Scan',
    description: 'Capture licence plate',
    icon: ScanLineIcon,
    phases: ['scanning_plate', 'verifying_vehicle'],
  },
  {
    title: 'Step 2: Facial Recognition',
    description: 'Verify driver identity',
    icon: ScanFaceIcon,
    phases: ['verifying_face'],
  },
  {
    title: 'Step 3: Grant Entry',
    description: 'Log and approve access',
    icon: ShieldCheckIcon,
    phases: ['approved'],
  },
];

/** The anti-spoofing score (0–1) as the guard reads it. */
export const formatLiveness = (liveness: number | null) =>
  liveness === null ? 'not measured' : `${Math.round(liveness * 100)}%`;

export function StepExplainer({ phase, compact }: { phase: AutoGatePhase; compact: boolean }) {
  return (
    <ol className={cn('grid gap-3', compact ? 'grid-cols-3' : 'md:grid-cols-3')}>
      {STEPS.map((step) => {
        const isActive = step.phases.includes(phase);
        return (
          <li
            key={step.title}
            aria-current={isActive ? 'step' : undefined}
            className={cn(
              'flex gap-3 rounded-lg border p-4',
              compact && 'flex-col items-center gap-1 p-2 text-center',
              isActive && 'border-primary bg-accent',
            )}
          >
            <step.icon aria-hidden className={cn('shrink-0', compact ? 'size-5' : 'size-6')} />
            <div className="grid gap-0.5">
              <p className={cn('font-semibold', compact ? 'text-xs' : 'text-sm')}>{step.title}</p>
              <p className="text-xs text-muted-foreground">{step.description}</p>
            </div>
          </li>
        );
      })}
    </ol>
  );
}

function Detail({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex justify-between gap-4 border-b py-2 last:border-b-0">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="text-right font-semibold">{value}</dd>
    </div>
  );
}

/** The barrier's real outcome under 'Entry approved - gate opening' (issue 17). */
const BARRIER_OUTCOME: Record<GateOpenResult, string> = {
  opened: 'Gate opened',
  offline: 'Barrier offline — open by hand',
  not_opened: 'Barrier did not open — open by hand',
};

export function ApprovedPanel({
  state,
  isMobile,
  onNext,
}: {
  state: AutoGateState;
  isMobile: boolean;
  onNext: () => void;
}) {
  return (
    <Card className="border-success" data-testid="approved-panel">
      <CardHeader className="items-center text-center">
        <CheckCircle2Icon aria-hidden className="size-14 text-success" />
        <CardTitle className="text-xl" role="status">
          {/* Issue 21: a PIN override grants the entry without opening the barrier. */}
          {state.status === PIN_OVERRIDE_STATUS ? PIN_OVERRIDE_STATUS : AUTO_GATE_STATUS.approved}
        </CardTitle>
        {state.barrier && (
          <p
            data-testid="barrier-outcome"
            className={state.barrier === 'opened' ? 'text-success' : 'font-medium text-destructive'}
          >
            {BARRIER_OUTCOME[state.barrier]}
          </p>
        )}
      </CardHeader>
      <CardContent className="grid gap-4">
        <dl className="text-sm">
          <Detail label="Driver" value={state.vehicle?.driverName ?? '-'} />
          <Detail
            label="Plate Number"
            value={state.plateNumber ? formatPlate(state.plateNumber) : '-'}
          />
          <TypedPlateNote state={state} />
          <Detail label="Company" value={state.vehicle?.company ?? '-'} />
          <Detail
            label="Facial Match"
            value={
              state.faceVerified && state.matchScore !== null
                ? `${Math.round(state.matchScore)}%`
                : state.faceImage
                  ? 'Not verified'
                  : 'Not verified (no reference photo)'
            }
          />
          {state.liveness !== null && (
            <Detail label="Liveness" value={formatLiveness(state.liveness)} />
          )}
        </dl>
        {/* Known only for vehicles onboarded for a driver record; a warning, never a refusal. */}
        <InductionValidityNotice validity={state.vehicle?.induction} />
        <EntryWarningsPanel warnings={state.warnings} />
        <Button size="lg" className="w-full" onClick={onNext}>
          <RotateCcwIcon aria-hidden />
          {isMobile ? 'Next Vehicle' : 'Process Next Vehicle'}
        </Button>
      </CardContent>
    </Card>
  );
}

export function NotRegisteredPanel({
  state,
  onScanAgain,
  onRetakeFace,
  onPinOverridden,
  onCorrectPlate,
  canPinOverride,
}: {
  state: AutoGateState;
  onScanAgain: () => void;
  onRetakeFace: () => void;
  onPinOverridden: () => void;
  onCorrectPlate: (plateNumber: string) => void;
  canPinOverride: boolean;
}) {
  // Issue 15: a registered vehicle whose face check failed retakes the face, not pre-registers.
  const canRetake = canRetakeFace(state);
  // Issue 21: a watched plate is never pre-registered: one the rules refused, or one the server
  // reports a watchlist hit for (an alert on an unregistered plate). A covert hit carries no
  // warning, so nothing here tells the guard about it.
  const isWatched =
    state.refusedByRules || state.warnings.some((warning) => warning.code === 'watchlist_hit');
  return (
    <Card className="border-destructive" data-testid="not-registered-panel">
      <CardHeader className="items-center text-center">
        <CircleAlertIcon aria-hidden className="size-14 text-destructive" />
        <CardTitle className="text-xl" role="status">
          {state.status}
        </CardTitle>
        {state.status === AUTO_GATE_STATUS.faceMismatch && state.matchScore !== null && (
          <CardDescription>
            Match score: {Math.round(state.matchScore)}%
            {state.liveness !== null && <> · Liveness: {formatLiveness(state.liveness)}</>}
          </CardDescription>
        )}
        {state.refusalDetail && (
          <CardDescription className="font-medium text-destructive" data-testid="refusal-detail">
            {state.refusalDetail}
          </CardDescription>
        )}
        {state.spoofSuspected && (
          <CardDescription className="font-medium text-destructive" data-testid="spoof-warning">
            Possible spoof: the face may be a photo or a screen. Check the driver in person.
          </CardDescription>
        )}
      </CardHeader>
      <CardContent className="grid gap-4">
        <InductionValidityNotice validity={state.vehicle?.induction} />
        <EntryWarningsPanel warnings={state.warnings} />
        <div className="rounded-lg bg-muted p-4 text-center">
          <p className="text-xs uppercase text-muted-foreground">Scanned plate</p>
          <p className="font-mono text-2xl font-bold" data-testid="scanned-plate">
            {state.plateNumber ? formatPlate(state.plateNumber) : 'No plate read'}
          </p>
          <TypedPlateNote state={state} />
        </div>
        <div className={cn('grid gap-2', !isWatched && 'sm:grid-cols-2')}>
          {canRetake ? (
            <Button size="lg" onClick={onRetakeFace}>
              <ScanFaceIcon aria-hidden />
              Retake Face
            </Button>
          ) : (
            !isWatched && (
              <Button size="lg" asChild>
                <Link href={paths.preArrival(state.plateNumber ?? undefined)}>
                  <UserPlusIcon aria-hidden />
                  Pre-Register Vehicle
                </Link>
              </Button>
            )
          )}
          {/* Issue 21: a supervisor's one-time PIN overrides the rules' refusal of this entry. */}
          {canPinOverride && state.refusedByRules && state.refusedEntryId && (
            <PinOverrideButton
              entryId={state.refusedEntryId}
              plateNumber={state.plateNumber}
              onOverridden={onPinOverridden}
            />
          )}
          <Button size="lg" variant="outline" onClick={onScanAgain}>
            <ScanLineIcon aria-hidden />
            Scan Again
          </Button>
          {/* Issue 15: a misread plate is typed and checked again (the photo is not retaken). */}
          {canCorrectPlate(state) && (
            <CorrectPlateAction plateNumber={state.plateNumber} onCorrect={onCorrectPlate} />
          )}
        </div>
      </CardContent>
    </Card>
  );
}

/** Issue 15: a typed plate says so, with what the camera read beside it. */
function TypedPlateNote({ state }: { state: AutoGateState }) {
  const { t } = useTranslation('scan');
  if (!state.plateTyped || !state.plateRead) return null;
  const read = state.plateRead.plateNumber;
  if (read && read === state.plateNumber) return null;
  return (
    <p className="mt-1 text-xs text-muted-foreground" data-testid="typed-plate-note">
      {t('autoGatePlate.typedBy', {
        read: read ? formatPlate(read) : t('autoGatePlate.nothingRead'),
      })}
    </p>
  );
}

export function ProgressPanel({ state }: { state: AutoGateState }) {
  const status =
    state.status ?? (state.camera === 'plate' ? 'Capture the licence plate' : 'Please wait...');
  return (
    <Card>
      <CardContent className="flex flex-col items-center gap-3 py-8 text-center">
        <div
          role="status"
          aria-live="polite"
          className="flex items-center gap-2 text-lg font-medium"
        >
          {state.camera === null && <Spinner className="size-5" />}
          <span data-testid="auto-gate-status">{status}</span>
        </div>
        {state.plateNumber && (
          <p className="font-mono text-2xl font-bold">{formatPlate(state.plateNumber)}</p>
        )}
        {state.vehicle && (
          <p className="text-sm text-muted-foreground">{state.vehicle.driverName}</p>
        )}
      </CardContent>
    </Card>
  );
}
