import { CircleAlertIcon, ScanFaceIcon, ScanLineIcon, UserPlusIcon } from 'lucide-react';
import { Link } from 'wouter';

import { EntryWarningsPanel } from '@/components/entry-warnings';
import { InductionValidityNotice } from '@/components/induction-validity-notice';
import { PinOverrideButton } from '@/components/entry-override';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { cn } from '@/lib/cn';
import { useTranslation } from '@/lib/i18n';
import { formatPlate } from '@/lib/plates';

import {
  AUTO_GATE_STATUS,
  type AutoGateState,
  canCorrectPlate,
  canRetakeFace,
} from './auto-gate-machine';
import { formatLiveness, statusText } from './auto-gate-texts';
import { CorrectPlateAction, TypedPlateNote } from './plate-check-panel';

/** The Auto Gate's refused outcome: not registered, expired, face failed, or the server's rules. */
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
  const { t } = useTranslation('autoGate');
  return (
    <Card className="border-destructive" data-testid="not-registered-panel">
      <CardHeader className="items-center text-center">
        <CircleAlertIcon aria-hidden className="size-14 text-destructive" />
        <CardTitle className="text-xl" role="status">
          {state.status && statusText(t, state.status)}
        </CardTitle>
        {state.status === AUTO_GATE_STATUS.faceMismatch && state.matchScore !== null && (
          <CardDescription>
            {state.liveness === null
              ? t('matchScore', { score: Math.round(state.matchScore) })
              : t('matchScoreAndLiveness', {
                  score: Math.round(state.matchScore),
                  liveness: formatLiveness(t, state.liveness),
                })}
          </CardDescription>
        )}
        {state.refusalDetail && (
          <CardDescription className="font-medium text-destructive" data-testid="refusal-detail">
            {state.refusalDetail}
          </CardDescription>
        )}
        {state.spoofSuspected && (
          <CardDescription className="font-medium text-destructive" data-testid="spoof-warning">
            {t('spoofWarning')}
          </CardDescription>
        )}
      </CardHeader>
      <CardContent className="grid gap-4">
        <InductionValidityNotice validity={state.vehicle?.induction} />
        {/* The refusal's own reason is shown above: not a second time as a warning. */}
        <EntryWarningsPanel
          warnings={state.warnings.filter((warning) => warning.message !== state.refusalDetail)}
        />
        <div className="rounded-lg bg-muted p-4 text-center">
          <p className="text-xs uppercase text-muted-foreground">{t('scannedPlate')}</p>
          <p className="font-mono text-2xl font-bold" data-testid="scanned-plate">
            {state.plateNumber ? formatPlate(state.plateNumber) : t('noPlateRead')}
          </p>
          <TypedPlateNote state={state} />
        </div>
        <div className={cn('grid gap-2', !isWatched && 'sm:grid-cols-2')}>
          {canRetake ? (
            <Button size="lg" onClick={onRetakeFace}>
              <ScanFaceIcon aria-hidden />
              {t('retakeFace')}
            </Button>
          ) : (
            !isWatched && (
              <Button size="lg" asChild>
                <Link href={paths.preArrival(state.plateNumber ?? undefined)}>
                  <UserPlusIcon aria-hidden />
                  {t('preRegister')}
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
            {t('scanAgain')}
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
