import * as DialogPrimitive from '@radix-ui/react-dialog';
import { CameraIcon, SwitchCameraIcon, UploadIcon, XIcon } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';

import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { type FacingMode, useCameraStream } from '@/hooks/use-camera-stream';
import { toast } from '@/hooks/use-toast';
import { cn } from '@/lib/cn';
import { useTranslation } from '@/lib/i18n';
import { IMAGE_FILE_ACCEPT } from '@/lib/image-file';

import { cameraErrorText } from './camera-errors';
import { useImageUpload } from './camera-upload';
import { captureFrame } from './capture-frame';
import { readRememberedFacing, rememberFacing } from './facing-memory';
import { type GuideShape, guideBox, guideRegionInFrame } from './guide';
import { useElementSize, useOverlayInsets } from './overlay-layout';

export type CameraCaptureDialogProps = {
  open: boolean;
  /** The person closed the overlay without taking a picture. */
  onClose: () => void;
  /** A JPEG data URL from the camera, or the data URL of an uploaded image. */
  onCapture: (image: string) => void;
  title: string;
  description?: string;
  guide?: GuideShape;
  /**
   * The camera to open first: the rear one unless told otherwise (spec §9). The camera the guard
   * last switched to for this step (`rememberAs`, else the title) wins over it on this device.
   */
  initialFacingMode?: FacingMode;
  /** The step the camera choice is remembered for; the title when absent. */
  rememberAs?: string;
  captureLabel?: string;
};

/**
 * A full-screen camera overlay: a live preview with a guide frame, capture, a switch between the
 * rear and front cameras and an upload that always works. Camera errors show over the preview.
 */
export function CameraCaptureDialog({ open, onClose, ...props }: CameraCaptureDialogProps) {
  return (
    <DialogPrimitive.Root
      open={open}
      onOpenChange={(isOpen) => {
        if (!isOpen) onClose();
      }}
    >
      <DialogPrimitive.Portal>
        <DialogPrimitive.Content
          className="fixed inset-0 z-50 flex h-dvh w-screen flex-col bg-black text-white outline-none"
          onOpenAutoFocus={(event) => event.preventDefault()}
        >
          {open && <CameraBody {...props} />}
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}

function CameraBody({
  onCapture,
  title,
  description,
  guide = 'none',
  initialFacingMode = 'environment',
  rememberAs,
  captureLabel,
}: Omit<CameraCaptureDialogProps, 'open' | 'onClose'>) {
  const { t } = useTranslation('shared');
  const step = rememberAs ?? title;
  const [facingMode, setFacingMode] = useState<FacingMode>(
    () => readRememberedFacing(step) ?? initialFacingMode,
  );
  const { stream, error, isStarting } = useCameraStream({ enabled: true, facingMode });
  const videoRef = useRef<HTMLVideoElement>(null);
  const { ref: previewRef, size: previewSize } = useElementSize<HTMLDivElement>();
  const [readyStream, setReadyStream] = useState<MediaStream | null>(null);
  const { isReadingUpload, handleUpload } = useImageUpload(onCapture);
  const uploadId = useId();
  const { headerRef, controlsRef } = useOverlayInsets();

  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    video.srcObject = stream;
    if (stream) video.play?.()?.catch(() => undefined);
  }, [stream]);

  const isReady = stream !== null && readyStream === stream;
  const box = guideBox(guide, previewSize);

  const handleCapture = () => {
    const video = videoRef.current;
    if (!video || !isReady) return;
    const region = guideRegionInFrame(guide, previewSize, {
      width: video.videoWidth,
      height: video.videoHeight,
    });
    let image: string;
    try {
      image = captureFrame(video, region);
    } catch {
      toast({
        variant: 'destructive',
        title: t('camera.processingFailed'),
        description: t('camera.processingFailedDetail'),
      });
      return;
    }
    onCapture(image);
  };

  return (
    <>
      <div
        ref={headerRef}
        data-testid="camera-title-bar"
        className="flex shrink-0 items-start justify-between gap-4 bg-black/80 px-4 pb-3 pt-[max(0.75rem,env(safe-area-inset-top))]"
      >
        <div className="grid gap-1">
          <DialogPrimitive.Title className="text-lg font-semibold">{title}</DialogPrimitive.Title>
          <DialogPrimitive.Description className="text-sm text-white/75">
            {description ?? t('camera.description')}
          </DialogPrimitive.Description>
        </div>
        <DialogPrimitive.Close asChild>
          <Button
            variant="ghost"
            size="icon"
            className="text-white hover:bg-white/15 hover:text-white"
            aria-label={t('camera.close')}
          >
            <XIcon aria-hidden className="size-5" />
          </Button>
        </DialogPrimitive.Close>
      </div>

      <div ref={previewRef} className="relative min-h-0 flex-1 overflow-hidden">
        <video
          ref={videoRef}
          data-testid="camera-preview"
          className={cn(
            'absolute inset-0 size-full object-cover',
            facingMode === 'user' && '-scale-x-100',
          )}
          autoPlay
          playsInline
          muted
          onLoadedMetadata={(event) =>
            setReadyStream(event.currentTarget.srcObject as MediaStream | null)
          }
        />
        {box && !error && (
          <div
            aria-hidden
            data-testid="camera-guide"
            className={cn(
              'pointer-events-none absolute border-2 border-white/90 shadow-[0_0_0_9999px_rgba(0,0,0,0.45)]',
              guide === 'oval' ? 'rounded-[50%]' : 'rounded-lg',
            )}
            style={{ left: box.x, top: box.y, width: box.width, height: box.height }}
          />
        )}
        {isStarting && !error && (
          <div
            role="status"
            className="absolute inset-0 flex items-center justify-center gap-2 text-white/80"
          >
            <Spinner className="size-5" />
            {t('camera.starting')}
          </div>
        )}
        {error && (
          <div className="absolute inset-x-4 top-4 mx-auto max-w-md">
            <Alert variant="destructive" role="alert" className="bg-background">
              <CameraIcon aria-hidden />
              <AlertDescription>{cameraErrorText(t, error)}</AlertDescription>
            </Alert>
          </div>
        )}
      </div>

      <div
        ref={controlsRef}
        data-testid="camera-controls"
        className="grid shrink-0 grid-cols-3 items-center gap-2 bg-black/80 px-4 pb-[max(1rem,env(safe-area-inset-bottom))] pt-4"
      >
        <div className="justify-self-start">
          <Button
            variant="ghost"
            className="h-auto flex-col gap-1 px-2 py-1 text-xs text-white hover:bg-white/15 hover:text-white"
            onClick={() => {
              const next = facingMode === 'environment' ? 'user' : 'environment';
              rememberFacing(step, next);
              setFacingMode(next);
            }}
            aria-label={
              facingMode === 'environment' ? t('camera.switchToFront') : t('camera.switchToRear')
            }
          >
            <SwitchCameraIcon aria-hidden className="size-6" />
            <span aria-hidden>{t('camera.switch')}</span>
          </Button>
        </div>
        <div className="justify-self-center">
          <button
            type="button"
            aria-label={captureLabel ?? t('camera.capture')}
            disabled={!isReady}
            onClick={handleCapture}
            className="flex size-16 items-center justify-center rounded-full border-4 border-white bg-white/20 transition hover:bg-white/35 focus-visible:outline-none focus-visible:ring-4 focus-visible:ring-white/60 disabled:opacity-40"
          >
            <CameraIcon aria-hidden className="size-7" />
          </button>
        </div>
        <div className="justify-self-end">
          <label
            htmlFor={uploadId}
            className="flex cursor-pointer flex-col items-center gap-1 rounded-md px-2 py-1 text-xs hover:bg-white/15 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-white/60"
          >
            {isReadingUpload ? (
              <Spinner className="size-6" />
            ) : (
              <UploadIcon aria-hidden className="size-6" />
            )}
            {t('camera.upload')}
            <input
              id={uploadId}
              type="file"
              accept={IMAGE_FILE_ACCEPT}
              className="sr-only"
              onChange={(event) => void handleUpload(event)}
            />
          </label>
        </div>
      </div>
    </>
  );
}
