import {
  CheckCircle2Icon,
  type LucideIcon,
  RotateCcwIcon,
  ScanFaceIcon,
  ScanLineIcon,
  ShieldCheckIcon,
} from 'lucide-react';

import type { GateOpenResult } from '@boomgate/contracts/barriers';

import { EntryWarningsPanel } from '@/components/entry-warnings';
import { InductionValidityNotice } from '@/components/induction-validity-notice';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/cn';
import { useTranslation } from '@/lib/i18n';
import { formatPlate } from '@/lib/plates';

import {
  AUTO_GATE_STATUS,
  PIN_OVERRIDE_STATUS,
  type AutoGatePhase,
  type AutoGateState,
} from './auto-gate-machine';
import { formatLiveness, statusText } from './auto-gate-texts';
import { TypedPlateNote } from './plate-check-panel';

/** The Auto Gate's panels: the steps, progress and the approved outcome (refused: not-registered-panel.tsx). */

/** The steps' texts are `autoGate:steps.<key>.title` and `.description`. */
const STEPS: { key: string; icon: LucideIcon; phases: AutoGatePhase[] }[] = [
  { key: 'plate', icon: ScanLineIcon, phases: ['scanning_plate', 'verifying_vehicle'] },
  { key: 'face', icon: ScanFaceIcon, phases: ['verifying_face'] },
  { key: 'grant', icon: ShieldCheckIcon, phases: ['approved'] },
];

export function StepExplainer({ phase, compact }: { phase: AutoGatePhase; compact: boolean }) {
  const { t } = useTranslation('autoGate');
  return (
    <ol className={cn('grid gap-3', compact ? 'grid-cols-3' : 'md:grid-cols-3')}>
      {STEPS.map((step) => {
        const isActive = step.phases.includes(phase);
        return (
          <li
            key={step.key}
            aria-current={isActive ? 'step' : undefined}
            className={cn(
              'flex gap-3 rounded-lg border p-4',
              compact && 'flex-col items-center gap-1 p-2 text-center',
              isActive && 'border-primary bg-accent',
            )}
          >
            <step.icon aria-hidden className={cn('shrink-0', compact ? 'size-5' : 'size-6')} />
            <div className="grid gap-0.5">
              <p className={cn('font-semibold', compact ? 'text-xs' : 'text-sm')}>
                {t(`steps.${step.key}.title`)}
              </p>
              <p className="text-xs text-muted-foreground">{t(`steps.${step.key}.description`)}</p>
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
const BARRIER_OUTCOME_KEY: Record<GateOpenResult, string> = {
  opened: 'barrier.opened',
  offline: 'barrier.offline',
  not_opened: 'barrier.not_opened',
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
  const { t } = useTranslation('autoGate');
  return (
    <Card className="border-success" data-testid="approved-panel">
      <CardHeader className="items-center text-center">
        <CheckCircle2Icon aria-hidden className="size-14 text-success" />
        <CardTitle className="text-xl" role="status">
          {/* Issue 21: a PIN override grants the entry without opening the barrier. */}
          {statusText(
            t,
            state.status === PIN_OVERRIDE_STATUS ? PIN_OVERRIDE_STATUS : AUTO_GATE_STATUS.approved,
          )}
        </CardTitle>
        {state.barrier && (
          <p
            data-testid="barrier-outcome"
            className={state.barrier === 'opened' ? 'text-success' : 'font-medium text-destructive'}
          >
            {t(BARRIER_OUTCOME_KEY[state.barrier])}
          </p>
        )}
      </CardHeader>
      <CardContent className="grid gap-4">
        <dl className="text-sm">
          <Detail label={t('details.driver')} value={state.vehicle?.driverName ?? '-'} />
          <Detail
            label={t('details.plateNumber')}
            value={state.plateNumber ? formatPlate(state.plateNumber) : '-'}
          />
          <TypedPlateNote state={state} />
          <Detail label={t('details.company')} value={state.vehicle?.company ?? '-'} />
          <Detail
            label={t('details.facialMatch')}
            value={
              state.faceVerified && state.matchScore !== null
                ? `${Math.round(state.matchScore)}%`
                : state.faceImage
                  ? t('details.notVerified')
                  : t('details.notVerifiedNoPhoto')
            }
          />
          {state.liveness !== null && (
            <Detail label={t('details.liveness')} value={formatLiveness(t, state.liveness)} />
          )}
        </dl>
        {/* Known only for vehicles onboarded for a driver record; a warning, never a refusal. */}
        <InductionValidityNotice validity={state.vehicle?.induction} />
        <EntryWarningsPanel warnings={state.warnings} />
        <Button size="lg" className="w-full" onClick={onNext}>
          <RotateCcwIcon aria-hidden />
          {isMobile ? t('nextVehicle') : t('processNextVehicle')}
        </Button>
      </CardContent>
    </Card>
  );
}

export function ProgressPanel({ state }: { state: AutoGateState }) {
  const { t } = useTranslation('autoGate');
  const status = state.status
    ? statusText(t, state.status)
    : state.camera === 'plate'
      ? t('status.capturePlate')
      : t('status.pleaseWait');
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
