import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';

import { QrCodeImage } from '@/components/qr-code-image';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api-client';

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

  if (setup.isPending) return <Spinner />;
  if (setup.isError) {
    return (
      <p role="alert" className="text-sm text-destructive">
        {getErrorMessage(setup.error, 'Could not start the setup')}
      </p>
    );
  }

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!/^\d{6}$/.test(code.trim())) {
      toast({
        variant: 'destructive',
        title: 'Validation Error',
        description: 'Enter the 6-digit code from your authenticator app',
      });
      return;
    }
    confirm.mutate(code.trim(), {
      onSuccess: ({ recoveryCodes }) => onConfirmed(recoveryCodes),
      onError: (error) => {
        toast({
          variant: 'destructive',
          title: 'Setup Failed',
          description: getErrorMessage(error, 'That code is not right'),
        });
      },
    });
  };

  return (
    <form
      noValidate
      className="grid gap-4"
      aria-label="Set up an authenticator app"
      onSubmit={handleSubmit}
    >
      <p className="text-sm text-muted-foreground">
        Scan the QR code with an authenticator app (Google Authenticator, Microsoft Authenticator,
        1Password, …), or type the key into it. Then enter the 6-digit code it shows.
      </p>
      <div className="flex flex-col items-center gap-3 sm:flex-row sm:items-start">
        <QrCodeImage text={setup.data.otpauthUrl} label="QR code for your authenticator app" />
        <div className="grid min-w-0 gap-1 text-sm">
          <span className="text-muted-foreground">Setup key</span>
          <code data-testid="totp-secret" className="font-mono break-all select-all">
            {setup.data.secret}
          </code>
        </div>
      </div>
      <Field id="totp-code" label="Code from the app">
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
          Turn On
        </Button>
      </div>
    </form>
  );
}
