import { useMutation } from '@tanstack/react-query';
import { KeyRoundIcon } from 'lucide-react';
import { type FormEvent, useState } from 'react';

import type { AuthResponse, MfaMethod } from '@boomgate/contracts/auth';

import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api-client';
import { useTranslation } from '@/lib/i18n';

import { verifySecondFactor, verifyWithPasskey } from '../api/mfa';

/**
 * The login screen's second step (SEC-26): a code from the authenticator app or a recovery code,
 * or a passkey. `onSignedIn` gets the login body, so the spec's landing rules follow.
 */
export function SecondStepForm({
  methods,
  onSignedIn,
  onCancel,
}: {
  methods: MfaMethod[];
  onSignedIn: (session: AuthResponse) => void;
  onCancel: () => void;
}) {
  const [code, setCode] = useState('');
  const [hasFailed, setHasFailed] = useState(false);
  const { t } = useTranslation('mfa');
  const handlers = {
    onSuccess: onSignedIn,
    onError: (error: unknown) => {
      setHasFailed(true);
      toast({
        variant: 'destructive',
        title: t('secondStep.failedTitle'),
        description: getErrorMessage(error, t('secondStep.invalidCode')),
      });
    },
  };
  const byCode = useMutation({ mutationFn: verifySecondFactor, ...handlers });
  const byPasskey = useMutation({ mutationFn: verifyWithPasskey, ...handlers });
  const isPending = byCode.isPending || byPasskey.isPending;
  const hasCodes = methods.includes('totp') || methods.includes('recovery');

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (code.trim() === '') {
      toast({
        variant: 'destructive',
        title: t('auth:validationError'),
        description: t('secondStep.enterCode'),
      });
      return;
    }
    setHasFailed(false);
    byCode.mutate(code.trim());
  };

  return (
    <div className="grid gap-4">
      <p className="text-sm text-muted-foreground">
        {methods.includes('totp') ? t('secondStep.totpPrompt') : t('secondStep.passkeyPrompt')}
        {methods.includes('recovery') && t('secondStep.recoveryPrompt')}
      </p>
      {hasCodes && (
        <form
          noValidate
          className="grid gap-4"
          aria-label={t('secondStep.formLabel')}
          onSubmit={handleSubmit}
        >
          <Field id="mfa-code" label={t('secondStep.code')}>
            <Input
              id="mfa-code"
              autoComplete="one-time-code"
              autoCapitalize="none"
              spellCheck={false}
              maxLength={32}
              value={code}
              aria-invalid={hasFailed ? true : undefined}
              onChange={(event) => setCode(event.target.value)}
            />
          </Field>
          {hasFailed && (
            <p role="alert" className="text-sm font-medium text-destructive">
              {t('secondStep.failed')}
            </p>
          )}
          <Button type="submit" className="w-full" disabled={isPending}>
            {byCode.isPending && <Spinner />}
            {t('secondStep.verify')}
          </Button>
        </form>
      )}
      {methods.includes('passkey') && (
        <Button
          type="button"
          variant={hasCodes ? 'outline' : 'default'}
          className="w-full"
          disabled={isPending}
          onClick={() => {
            setHasFailed(false);
            byPasskey.mutate();
          }}
        >
          {byPasskey.isPending ? <Spinner /> : <KeyRoundIcon aria-hidden />}
          {t('secondStep.usePasskey')}
        </Button>
      )}
      <Button type="button" variant="ghost" className="w-full" onClick={onCancel}>
        {t('secondStep.back')}
      </Button>
    </div>
  );
}
