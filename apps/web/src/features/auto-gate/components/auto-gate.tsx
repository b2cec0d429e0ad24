import { ScanLineIcon } from 'lucide-react';
import { lazy, Suspense } from 'react';

import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { useIsMobile } from '@/hooks/use-is-mobile';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { cn } from '@/lib/cn';
import { useDecisionFeedback } from '@/lib/decision-feedback';
import { useTranslation } from '@/lib/i18n';
import { useOfflineStatus } from '@/lib/offline/offline-sync';

import { AUTO_GATE_STATUS, isAwaitingPlate } from './auto-gate-machine';
import { ApprovedPanel, ProgressPanel, StepExplainer } from './auto-gate-panels';
import { statusText } from './auto-gate-texts';
import { NotRegisteredPanel } from './not-registered-panel';
import { OfflineAutoGate } from './offline-auto-gate';
import { PlateCheckPanel } from './plate-check-panel';
import { useAutoGateFlow } from './use-auto-gate-flow';

// The camera's code loads after the screen has rendered: it is not needed to show the screen.
const CameraCaptureDialog = lazy(() =>
  import('@/components/camera/camera-capture-dialog').then((m) => ({
    default: m.CameraCaptureDialog,
  })),
);

/**
 * Spec §2/§4 Automated Gate Entry: plate → registration → face → entry, as the state machine in
 * auto-gate-machine.ts (its steps in use-auto-gate-flow.ts); texts in `autoGate`.
 */
export function AutoGate({
  canPinOverride = false,
}: {
  /**
   * Issue 21: the user's role may override a refusal with a supervisor's PIN (the
   * `pinOverrideEntries` action, as the server's route allows it); a super_admin may not.
   */
  canPinOverride?: boolean;
} = {}) {
  const { t } = useTranslation('autoGate');
  const title = t('title');
  const subtitle = t('subtitle');
  useDocumentTitle(title);
  const isMobile = useIsMobile();
  const { online } = useOfflineStatus();
  const {
    state,
    dispatch,
    start,
    reset,
    retakeFace,
    enterPlate,
    correctPlate,
    closeCamera,
    handlePlateCaptured,
    handleFaceCaptured,
  } = useAutoGateFlow();

  const { phase } = state;
  // Issue 19: a guard in gloves and noise feels and hears the verdict without looking.
  useDecisionFeedback(
    phase === 'approved' ? 'approved' : phase === 'not_registered' ? 'refused' : null,
  );
  const isAwaitingGuard = isAwaitingPlate(state);
  const isBusy =
    !isAwaitingGuard &&
    (phase === 'scanning_plate' || phase === 'verifying_vehicle' || phase === 'verifying_face');

  return (
    <div className={cn('mx-auto flex w-full flex-col', isMobile ? 'gap-4' : 'max-w-4xl gap-6')}>
      {isMobile ? (
        <header className="flex flex-col gap-0.5">
          <h1 className="text-xl font-bold tracking-tight">{title}</h1>
          <p className="text-xs text-muted-foreground">{subtitle}</p>
        </header>
      ) : (
        <PageHeader title={title} description={subtitle} />
      )}

      {(phase === 'idle' || !isMobile) && <StepExplainer phase={phase} compact={isMobile} />}

      {phase === 'idle' && !online && <OfflineAutoGate />}
      {phase === 'idle' && online && (
        <Card>
          <CardContent className="flex flex-col items-center gap-4 py-6 text-center">
            {!isMobile && <p className="max-w-lg text-sm text-muted-foreground">{t('intro')}</p>}
            <Button
              size="lg"
              className={cn(isMobile ? 'h-14 w-full text-base' : 'px-8')}
              onClick={start}
            >
              <ScanLineIcon aria-hidden />
              {isMobile ? t('start') : t('startLong')}
            </Button>
          </CardContent>
        </Card>
      )}
      {isBusy && <ProgressPanel state={state} />}
      {isAwaitingGuard && (
        <PlateCheckPanel
          key={`${state.attemptId}-${state.status}`}
          state={state}
          onEnter={enterPlate}
          onScanAgain={reset}
        />
      )}
      {phase === 'approved' && <ApprovedPanel state={state} isMobile={isMobile} onNext={reset} />}
      {phase === 'not_registered' && (
        <NotRegisteredPanel
          state={state}
          onScanAgain={reset}
          onRetakeFace={retakeFace}
          onPinOverridden={() => dispatch({ type: 'PIN_OVERRIDDEN' })}
          onCorrectPlate={correctPlate}
          canPinOverride={canPinOverride}
        />
      )}

      <Suspense fallback={null}>
        <CameraCaptureDialog
          open={state.camera === 'plate'}
          onClose={closeCamera}
          onCapture={(image) => void handlePlateCaptured(image)}
          title={t('camera.plateTitle')}
          description={t('camera.plateDescription')}
          guide="wide"
          initialFacingMode="environment"
          rememberAs="auto-gate-plate"
          captureLabel={t('camera.capturePlate')}
        />
        <CameraCaptureDialog
          open={state.camera === 'face'}
          onClose={closeCamera}
          onCapture={(image) => void handleFaceCaptured(image)}
          title={statusText(t, AUTO_GATE_STATUS.verifyDriver)}
          description={
            state.vehicle?.driverName
              ? t('camera.faceDescription', { name: state.vehicle.driverName })
              : t('camera.faceDescriptionNoName')
          }
          guide="oval"
          rememberAs="auto-gate-face"
          captureLabel={t('camera.captureFace')}
        />
      </Suspense>
    </div>
  );
}
