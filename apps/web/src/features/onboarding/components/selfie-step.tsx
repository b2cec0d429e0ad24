import {
  CheckCircle2Icon,
  CircleIcon,
  CircleXIcon,
  RefreshCwIcon,
  ScanFaceIcon,
  ShieldAlertIcon,
  ShieldCheckIcon,
} from 'lucide-react';
import { useEffect, useRef, useState } from 'react';

import type { LivenessFrames } from '@boomgate/contracts/drivers';

import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { useCameraStream } from '@/hooks/use-camera-stream';
import { cn } from '@/lib/cn';
import { useTranslation } from '@/lib/i18n';

import { type LivenessCheckState, useLivenessCheck } from '../hooks/use-liveness-check';
import { LIVENESS_STEPS, type StepsSeen } from '../liveness/liveness-check';

/**
 * The selfie of a passed liveness check, with the check's confidence (0–1) and the four prompts'
 * captures the server judges again.
 */
export type Selfie = { photo: string; confidence: number; captures: LivenessFrames };

export function formatConfidence(confidence: number): string {
  return `${Math.round(confidence * 100)}%`;
}

/**
 * Step 3 of self onboarding: a selfie taken during a live check (look at the camera, blink, turn
 * left, turn right). Continue stays disabled until the check has passed and a photo was taken.
 */
export function SelfieStep({
  selfie,
  onBack,
  onContinue,
}: {
  selfie: Selfie | null;
  onBack: () => void;
  onContinue: (selfie: Selfie) => void;
}) {
  const { t } = useTranslation('onboarding');
  const [isRetaking, setIsRetaking] = useState(selfie === null);
  const videoRef = useRef<HTMLVideoElement>(null);
  const { model, check, start, reset, retryModel } = useLivenessCheck(videoRef);
  const passed =
    check.status === 'passed'
      ? { photo: check.photo, confidence: check.confidence, captures: check.captures }
      : null;
  const current = isRetaking ? passed : selfie;
  const isCameraOn = isRetaking && check.status !== 'passed';
  const camera = useCameraStream({ enabled: isCameraOn, facingMode: 'user' });
  const [readyStream, setReadyStream] = useState<MediaStream | null>(null);
  const isVideoReady = camera.stream !== null && readyStream === camera.stream;

  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    video.srcObject = camera.stream;
    if (camera.stream) video.play?.()?.catch(() => undefined);
  }, [camera.stream]);

  const handleRetake = () => {
    reset();
    setIsRetaking(true);
  };

  const isRunning = check.status === 'prompting' || check.status === 'verifying';
  const canStart = model.status === 'ready' && isVideoReady && !isRunning;

  return (
    <div
      className="grid gap-5"
      data-testid="liveness-check"
      data-status={current && !isCameraOn ? 'passed' : check.status}
      data-backend={model.status === 'ready' ? model.detector.backend : undefined}
      data-frames={'result' in check ? check.result.evidence.frames : undefined}
      data-frames-with-face={'result' in check ? check.result.evidence.framesWithFace : undefined}
    >
      {current && !isCameraOn ? (
        <div className="grid gap-4 sm:grid-cols-[auto_1fr] sm:items-start">
          <img
            src={current.photo}
            alt={t('selfie.photoAlt')}
            className="aspect-[3/4] w-40 rounded-lg object-cover"
          />
          <div className="grid gap-3">
            <Alert variant="success">
              <ShieldCheckIcon aria-hidden />
              <AlertTitle>{t('selfie.verifiedTitle')}</AlertTitle>
              <AlertDescription>
                <p>
                  {t('selfie.verifiedDescription', {
                    confidence: formatConfidence(current.confidence),
                  })}
                </p>
              </AlertDescription>
            </Alert>
            <div>
              <Button type="button" variant="outline" onClick={handleRetake}>
                <RefreshCwIcon aria-hidden />
                {t('selfie.retake')}
              </Button>
            </div>
          </div>
        </div>
      ) : (
        <>
          <p className="text-sm text-muted-foreground">{t('selfie.instructions')}</p>
          <div className="relative mx-auto aspect-[3/4] w-full max-w-sm overflow-hidden rounded-xl bg-black sm:aspect-[4/3] sm:max-w-xl">
            <video
              ref={videoRef}
              data-testid="liveness-preview"
              className="absolute inset-0 size-full -scale-x-100 object-cover"
              autoPlay
              playsInline
              muted
              onLoadedMetadata={(event) =>
                setReadyStream(event.currentTarget.srcObject as MediaStream | null)
              }
            />
            {!camera.error && (
              <div
                aria-hidden
                className="pointer-events-none absolute left-1/2 top-1/2 aspect-[3/4] h-[78%] -translate-x-1/2 -translate-y-1/2 rounded-[50%] border-2 border-white/80 shadow-[0_0_0_9999px_rgba(0,0,0,0.35)]"
              />
            )}
            <LivenessOverlay check={check} isStarting={camera.isStarting} />
          </div>

          {camera.error && (
            <Alert variant="destructive" role="alert">
              <ScanFaceIcon aria-hidden />
              <AlertTitle>{t('selfie.cameraUnavailable')}</AlertTitle>
              <AlertDescription>
                <p>{camera.error}</p>
                <p>{t('selfie.needsLiveCamera')}</p>
              </AlertDescription>
            </Alert>
          )}

          <PromptList check={check} />

          {check.status === 'failed' && (
            <Alert variant="destructive" role="alert">
              <ShieldAlertIcon aria-hidden />
              <AlertTitle>{t('selfie.failedTitle')}</AlertTitle>
              <AlertDescription>
                <p>{t(`selfie.failures.${check.failure}`)}</p>
                {(check.failure === 'prompts-missed' || check.failure === 'too-slow') && (
                  <p>
                    {t('selfie.notSeen', {
                      movements: check.result.missing
                        .map((prompt) => t(`selfie.movements.${prompt}`))
                        .join(', '),
                    })}
                  </p>
                )}
              </AlertDescription>
            </Alert>
          )}
          {check.status === 'error' && (
            <Alert variant="destructive" role="alert">
              <ShieldAlertIcon aria-hidden />
              <AlertTitle>{t('selfie.stoppedTitle')}</AlertTitle>
              <AlertDescription>
                <p>{t('selfie.stoppedDescription')}</p>
              </AlertDescription>
            </Alert>
          )}
          {model.status === 'error' && (
            <Alert variant="destructive" role="alert">
              <ShieldAlertIcon aria-hidden />
              <AlertTitle>{t('selfie.modelUnavailableTitle')}</AlertTitle>
              <AlertDescription>
                <p>{t('selfie.modelUnavailableDescription')}</p>
                <Button type="button" variant="outline" size="sm" onClick={retryModel}>
                  {t('selfie.retry')}
                </Button>
              </AlertDescription>
            </Alert>
          )}

          <div className="flex flex-wrap items-center gap-3">
            <Button type="button" onClick={start} disabled={!canStart}>
              {model.status === 'loading' ? <Spinner /> : <ScanFaceIcon aria-hidden />}
              {check.status === 'failed' || check.status === 'error'
                ? t('selfie.tryAgain')
                : t('selfie.start')}
            </Button>
            {model.status === 'loading' && (
              <span role="status" className="text-sm text-muted-foreground">
                {t('selfie.loadingModel')}
              </span>
            )}
            {!isRetaking || selfie === null ? null : (
              <Button
                type="button"
                variant="ghost"
                onClick={() => {
                  reset();
                  setIsRetaking(false);
                }}
              >
                {t('selfie.keepPrevious')}
              </Button>
            )}
          </div>
        </>
      )}

      <div className="flex justify-between gap-3 border-t pt-5">
        <Button type="button" variant="outline" onClick={onBack} disabled={isRunning}>
          {t('self.previous')}
        </Button>
        <Button
          type="button"
          disabled={!current || isCameraOn}
          onClick={() => current && onContinue(current)}
        >
          {t('self.continue')}
        </Button>
      </div>
    </div>
  );
}

function LivenessOverlay({
  check,
  isStarting,
}: {
  check: LivenessCheckState;
  isStarting: boolean;
}) {
  const { t } = useTranslation('onboarding');
  if (isStarting) {
    return (
      <div
        role="status"
        className="absolute inset-0 flex items-center justify-center gap-2 text-white/80"
      >
        <Spinner className="size-5" />
        {t('selfie.startingCamera')}
      </div>
    );
  }
  if (check.status === 'prompting') {
    const prompt = LIVENESS_STEPS[check.stepIndex];
    return (
      <div className="absolute inset-x-0 top-0 grid gap-1 bg-gradient-to-b from-black/80 to-transparent px-4 pb-8 pt-4 text-center text-white">
        <p className="text-xs uppercase tracking-wide text-white/75">
          {t('self.stepOf', { current: check.stepIndex + 1, total: LIVENESS_STEPS.length })}
        </p>
        <p role="status" aria-live="assertive" className="text-xl font-semibold">
          {prompt && t(`selfie.prompts.${prompt.step}`)}
        </p>
        {check.hasFace === false && (
          <p className="text-sm text-amber-200">{t('selfie.faceNotSeen')}</p>
        )}
      </div>
    );
  }
  if (check.status === 'verifying') {
    return (
      <div
        role="status"
        className="absolute inset-0 flex items-center justify-center gap-2 bg-black/60 text-lg font-medium text-white"
      >
        <Spinner className="size-5" />
        {t('selfie.verifying')}
      </div>
    );
  }
  return null;
}

type PromptMark = 'pending' | 'current' | 'seen' | 'missed';

function promptMarks(check: LivenessCheckState): PromptMark[] {
  if (check.status === 'prompting' || check.status === 'verifying') {
    const currentIndex = check.status === 'prompting' ? check.stepIndex : LIVENESS_STEPS.length;
    return LIVENESS_STEPS.map(({ step }, index) => markFor(check.seen, step, index, currentIndex));
  }
  if (check.status === 'failed' || check.status === 'passed') {
    const { prompts, evidence } = check.result;
    return LIVENESS_STEPS.map(({ step }) => {
      const isSeen = step === 'look' ? evidence.framesWithFace > 0 : prompts[step].satisfied;
      return isSeen ? 'seen' : 'missed';
    });
  }
  return LIVENESS_STEPS.map(() => 'pending');
}

function markFor(
  seen: StepsSeen,
  step: keyof StepsSeen,
  index: number,
  currentIndex: number,
): PromptMark {
  if (seen[step]) return 'seen';
  if (index === currentIndex) return 'current';
  return index < currentIndex ? 'missed' : 'pending';
}

function PromptList({ check }: { check: LivenessCheckState }) {
  const { t } = useTranslation('onboarding');
  const marks = promptMarks(check);
  return (
    <ol aria-label={t('selfie.promptsLabel')} className="grid gap-2 sm:grid-cols-4">
      {LIVENESS_STEPS.map(({ step }, index) => {
        const mark = marks[index] ?? 'pending';
        return (
          <li
            key={step}
            data-mark={mark}
            className={cn(
              'flex items-center gap-2 rounded-md border px-3 py-2 text-sm',
              mark === 'current' && 'border-primary bg-primary/5 font-medium',
              mark === 'missed' && 'text-muted-foreground',
            )}
          >
            {mark === 'seen' ? (
              <CheckCircle2Icon aria-hidden className="size-4 text-success" />
            ) : mark === 'missed' ? (
              <CircleXIcon aria-hidden className="size-4 text-destructive" />
            ) : mark === 'current' ? (
              <Spinner className="size-4 text-primary" />
            ) : (
              <CircleIcon aria-hidden className="size-4 text-muted-foreground" />
            )}
            <span>
              {t(`selfie.prompts.${step}`)}
              <span className="sr-only"> ({t(`selfie.marks.${mark}`)})</span>
            </span>
          </li>
        );
      })}
    </ol>
  );
}
