import { CameraIcon, XIcon } from 'lucide-react';

import { Button } from '@/components/ui/button';
import { useTranslation } from '@/lib/i18n';

import { MAX_PERMITS } from './real-gate-machine';

/** The permits step: the photos taken so far (each removable), another, or go on with them. */
export function PermitActions({
  permits,
  onCapture,
  onRemove,
  onConfirm,
}: {
  permits: string[];
  onCapture: () => void;
  onRemove: (index: number) => void;
  onConfirm: () => void;
}) {
  const { t } = useTranslation('realGate');
  const count = permits.length;
  return (
    <div className="flex flex-wrap items-center gap-2">
      {count > 0 && (
        <ul className="flex w-full flex-wrap gap-2" aria-label={t('actions.capturedPermits')}>
          {permits.map((image, index) => (
            <li key={index} className="relative">
              <img
                src={image}
                alt={t('summary.permit', { number: index + 1 })}
                className="size-16 rounded-md border object-cover"
              />
              <button
                type="button"
                aria-label={t('actions.removePermit', { number: index + 1 })}
                className="absolute -right-2 -top-2 rounded-full bg-background p-0.5 shadow"
                onClick={() => onRemove(index)}
              >
                <XIcon aria-hidden className="size-3.5" />
              </button>
            </li>
          ))}
        </ul>
      )}
      <Button
        variant={count > 0 ? 'outline' : 'default'}
        onClick={onCapture}
        disabled={count >= MAX_PERMITS}
      >
        <CameraIcon aria-hidden />
        {count > 0 ? t('actions.addAnotherPermit') : t('actions.capturePermit')}
      </Button>
      {count > 0 && <Button onClick={onConfirm}>{t('actions.continuePermits', { count })}</Button>}
    </div>
  );
}
