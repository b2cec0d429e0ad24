import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';

import { QrCodeImage } from '@/components/qr-code-image';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api-client';
import { useTranslation } from '@/lib/i18n';

import { confirmTotp, setupTotp } from '../api/mfa';

/**
 * Turns on an authenticator app: a new secret as a QR code and as text (for typing in), then the
 * first code from the app. `onConfirmed` gets the recovery codes.
 */
export function TotpSetup({ onConfirmed }: { onConfirmed: (recoveryCodes: string[]) => void }) {
  // A query, not an effect: one secret per visit even when React renders twice.
  const setup = useQuery({
    queryKey: ['auth', 'mfa', 'totp-setup'],
    queryFn: setupTotp,
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });
  const confirm = useMutation({ mutationFn: confirmTotp });
  const [code, setCode] = useState('');
  const { t } = useTranslation('mfa', { keyPrefix: 'totp' });

  if (setup.isPending) return <Spinner />;
  if (setup.isError) {
    return (
      <p role="alert" className="text-sm text-destructive">
        {getErrorMessage(setup.error, t('startFailed'))}
      </p>
    );
  }

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!/^\d{6}$/.test(code.trim())) {
      toast({
        variant: 'destructive',
        title: t('validationError'),
        description: t('enterCode'),
      });
      return;
    }
    confirm.mutate(code.trim(), {
      onSuccess: ({ recoveryCodes }) => onConfirmed(recoveryCodes),
      onError: (error) => {
        toast({
          variant: 'destructive',
          title: t('failedTitle'),
          description: getErrorMessage(error, t('wrongCode')),
        });
      },
    });
  };

  return (
    <form noValidate className="grid gap-4" aria-label={t('formLabel')} onSubmit={handleSubmit}>
      <p className="text-sm text-muted-foreground">{t('instructions')}</p>
      <div className="flex flex-col items-center gap-3 sm:flex-row sm:items-start">
        <QrCodeImage text={setup.data.otpauthUrl} label={t('qrLabel')} />
        <div className="grid min-w-0 gap-1 text-sm">
          <span className="text-muted-foreground">{t('setupKey')}</span>
          <code data-testid="totp-secret" className="font-mono break-all select-all">
            {setup.data.secret}
          </code>
        </div>
      </div>
      <Field id="totp-code" label={t('code')}>
        <Input
          id="totp-code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          value={code}
          onChange={(event) => setCode(event.target.value)}
        />
      </Field>
      <div className="flex justify-end">
        <Button type="submit" disabled={confirm.isPending}>
          {confirm.isPending && <Spinner />}
          {t('turnOn')}
        </Button>
      </div>
    </form>
  );
}
