import { CopyIcon } from 'lucide-react';

import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toast } from '@/hooks/use-toast';
import { formatDate, formatTime } from '@/lib/format';
import { i18next, useTranslation } from '@/lib/i18n';

export const when = (value: string | null) =>
  value ? `${formatDate(value)} ${formatTime(value)}` : '-';

async function copy(text: string, what: string) {
  try {
    await navigator.clipboard.writeText(text);
    toast({
      title: i18next.t('integrations:copy.copied'),
      description: i18next.t('integrations:copy.copiedDetail', { what }),
    });
  } catch {
    toast({
      variant: 'destructive',
      title: i18next.t('integrations:copy.failed'),
      description: i18next.t('integrations:copy.failedDetail'),
    });
  }
}

/** A read-only value (a URL, a secret) with a button that copies it. */
export function CopyField({ id, label, value }: { id: string; label: string; value: string }) {
  const { t } = useTranslation('integrations');
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <div className="flex gap-2">
        <Input
          id={id}
          readOnly
          value={value}
          className="font-mono"
          onFocus={(e) => e.target.select()}
        />
        <Button
          type="button"
          variant="outline"
          onClick={() => void copy(value, label)}
          aria-label={t('copy.label', { label })}
        >
          <CopyIcon aria-hidden />
        </Button>
      </div>
    </div>
  );
}
