import { PlayIcon, TriangleAlertIcon } from 'lucide-react';
import { useRef, useState } from 'react';

import type { InductionProgress, SafetyVideo } from '@boomgate/contracts/induction';

import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Progress } from '@/components/ui/progress';
import { Spinner } from '@/components/ui/spinner';
import { apiUrl } from '@/lib/api-client';
import { useTranslation } from '@/lib/i18n';

import { sendProgress } from '../api/induction';

/** While playing, a heartbeat at most this often (the server credits at most 10 s per beat). */
const HEARTBEAT_MS = 1000;
/** Notices by their `induction` catalogue key under `video.`. */
type Notice = 'skipNotice' | 'notWatchedNotice' | 'saveFailed';

/**
 * The safety video. The page reports the playing position; the server decides how much was
 * really watched (by its own clock), so the quiz opens only when the server says so. Seeking past
 * what was watched is snapped back here too, so the driver is not misled into skipping.
 */
export function InductionVideo({
  assignmentId,
  video,
  startWatchedSeconds,
  onWatched,
  onComplete,
}: {
  assignmentId: string;
  video: SafetyVideo;
  startWatchedSeconds: number;
  onWatched: (seconds: number) => void;
  onComplete: () => void;
}) {
  const { t } = useTranslation('induction');
  const videoRef = useRef<HTMLVideoElement>(null);
  const allowedRef = useRef(startWatchedSeconds);
  const chainRef = useRef<Promise<unknown>>(Promise.resolve());
  const lastSentRef = useRef(0);
  const [started, setStarted] = useState(false);
  const [watched, setWatched] = useState(startWatchedSeconds);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [isChecking, setIsChecking] = useState(false);
  const [loadFailed, setLoadFailed] = useState(false);

  const src = video.videoUrl.startsWith('/') ? apiUrl(video.videoUrl) : video.videoUrl;

  /** Heartbeats go one after another, so the server sees positions in playing order. */
  function beat(position: number): Promise<InductionProgress> {
    lastSentRef.current = Date.now();
    const next = chainRef.current.then(async () => {
      const progress = await sendProgress(assignmentId, position);
      allowedRef.current = Math.max(allowedRef.current, progress.watchedSeconds);
      setWatched(progress.watchedSeconds);
      onWatched(progress.watchedSeconds);
      return progress;
    });
    chainRef.current = next.catch(() => undefined);
    return next;
  }

  const handleTimeUpdate = () => {
    const element = videoRef.current;
    if (!element || element.seeking || element.paused) return;
    // Playing on from within what was watched extends it (the server checks the pace).
    if (element.currentTime <= allowedRef.current + 2) {
      allowedRef.current = Math.max(allowedRef.current, element.currentTime);
    }
    if (Date.now() - lastSentRef.current >= HEARTBEAT_MS)
      void beat(element.currentTime).catch(() => undefined);
  };

  const handleSeeking = () => {
    const element = videoRef.current;
    if (!element) return;
    if (element.currentTime > allowedRef.current + 1) {
      element.currentTime = allowedRef.current;
      setNotice('skipNotice');
    }
  };

  const handleEnded = async () => {
    const element = videoRef.current;
    if (!element) return;
    // A recorded webm may not know its length (Infinity): the end is where playback stopped.
    const end = Number.isFinite(element.duration) ? element.duration : element.currentTime;
    setIsChecking(true);
    try {
      const progress = await beat(end);
      if (progress.videoComplete) {
        onComplete();
        return;
      }
      setNotice('notWatchedNotice');
      element.currentTime = Math.min(allowedRef.current, end);
    } catch {
      setNotice('saveFailed');
    } finally {
      setIsChecking(false);
    }
  };

  const start = () => {
    setStarted(true);
    void videoRef.current?.play().catch(() => undefined);
  };

  const percent = Math.min(100, Math.round((watched / video.durationSeconds) * 100));

  return (
    <Card>
      <CardContent className="flex flex-col gap-4">
        <div className="relative overflow-hidden rounded-md bg-black">
          {/* Managers upload videos without caption files (none to offer); the quiz is text. */}
          {/* eslint-disable-next-line jsx-a11y/media-has-caption */}
          <video
            ref={videoRef}
            data-testid="induction-video"
            src={src}
            className="aspect-video w-full"
            controls={started}
            controlsList="nodownload noplaybackrate"
            disablePictureInPicture
            playsInline
            preload="auto"
            onPlay={(event) => {
              setStarted(true);
              void beat(event.currentTarget.currentTime).catch(() => undefined);
            }}
            onPause={(event) => {
              if (!event.currentTarget.ended)
                void beat(event.currentTarget.currentTime).catch(() => undefined);
            }}
            onTimeUpdate={handleTimeUpdate}
            onSeeking={handleSeeking}
            onRateChange={(event) => {
              event.currentTarget.playbackRate = 1;
            }}
            onEnded={() => void handleEnded()}
            onError={() => setLoadFailed(true)}
          />
          {!started && !loadFailed && (
            <div className="absolute inset-0 flex items-center justify-center bg-black/40">
              <Button size="lg" onClick={start}>
                <PlayIcon aria-hidden />
                {t('video.start')}
              </Button>
            </div>
          )}
        </div>
        <div className="flex flex-col gap-2">
          <Progress value={percent} aria-label={t('video.watchedLabel')} />
          <p className="text-sm text-muted-foreground" data-testid="induction-watched">
            {isChecking ? (
              <span className="inline-flex items-center gap-2">
                <Spinner /> {t('video.checking')}
              </span>
            ) : (
              t('video.watched', {
                watched: Math.floor(watched),
                total: Math.round(video.durationSeconds),
              })
            )}
          </p>
        </div>
        {loadFailed && (
          <Alert variant="destructive" role="alert">
            <TriangleAlertIcon aria-hidden />
            <AlertDescription>{t('video.playFailed')}</AlertDescription>
          </Alert>
        )}
        {notice && (
          <Alert variant="warning" role="status">
            <TriangleAlertIcon aria-hidden />
            <AlertDescription>{t(`video.${notice}`)}</AlertDescription>
          </Alert>
        )}
      </CardContent>
    </Card>
  );
}
