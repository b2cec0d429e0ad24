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
  const handlers = {
    onSuccess: onSignedIn,
    onError: (error: unknown) => {
      setHasFailed(true);
      toast({
        variant: 'destructive',
        title: 'Verification Failed',
        description: getErrorMessage(error, 'Invalid verification code'),
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
        title: 'Validation Error',
        description: 'Enter the code from your authenticator app',
      });
      return;
    }
    setHasFailed(false);
    byCode.mutate(code.trim());
  };

  return (
    <div className="grid gap-4">
      <p className="text-sm text-muted-foreground">
        {methods.includes('totp')
          ? 'Enter the 6-digit code from your authenticator app.'
          : 'Confirm it is you with your passkey.'}
        {methods.includes('recovery') && ' Lost your phone? Enter one of your recovery codes.'}
      </p>
      {hasCodes && (
        <form noValidate className="grid gap-4" aria-label="Second step" onSubmit={handleSubmit}>
          <Field id="mfa-code" label="Verification code">
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
              Verification failed. Check the code and try again.
            </p>
          )}
          <Button type="submit" className="w-full" disabled={isPending}>
            {byCode.isPending && <Spinner />}
            Verify
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
          Use a Passkey
        </Button>
      )}
      <Button type="button" variant="ghost" className="w-full" onClick={onCancel}>
        Back to Sign In
      </Button>
    </div>
  );
}
