import { Loader2Icon } from 'lucide-react';

import { cn } from '@/lib/cn';
import { useTranslation } from '@/lib/i18n';

export function Spinner({ className }: { className?: string }) {
  return <Loader2Icon aria-hidden className={cn('size-4 animate-spin', className)} />;
}

/** Full-height loading state with a visible, announced label. */
export function LoadingScreen({ label }: { label?: string }) {
  const { t } = useTranslation('common');
  return (
    <div
      role="status"
      aria-live="polite"
      className="flex min-h-[50svh] flex-1 items-center justify-center gap-2 text-muted-foreground"
    >
      <Spinner className="size-5" />
      <span>{label ?? t('loading')}</span>
    </div>
  );
}
