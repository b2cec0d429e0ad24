import { Button } from '@/components/ui/button';
import { toast } from '@/hooks/use-toast';
import { useTranslation } from '@/lib/i18n';

/** The ten recovery codes, shown once after the authenticator is turned on. */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation('mfa');
  const copy = () => {
    navigator.clipboard.writeText(codes.join('\n')).then(
      () =>
        toast({
          title: t('recoveryCodes.copiedTitle'),
          description: t('recoveryCodes.copiedDescription'),
        }),
      () => undefined,
    );
  };
  return (
    <div className="grid gap-4" data-testid="recovery-codes">
      <p className="text-sm text-muted-foreground">{t('recoveryCodes.intro')}</p>
      <ul className="grid grid-cols-2 gap-2 rounded-lg border bg-muted/40 p-3 font-mono text-sm">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="flex flex-wrap justify-end gap-2">
        <Button type="button" variant="outline" onClick={copy}>
          {t('recoveryCodes.copy')}
        </Button>
        <Button type="button" onClick={onDone}>
          {t('recoveryCodes.done')}
        </Button>
      </div>
    </div>
  );
}
