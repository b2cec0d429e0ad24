import { KeyRoundIcon, SmartphoneIcon, Trash2Icon } from 'lucide-react';
import { useState } from 'react';

import { Alert, AlertDescription } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { PageHeader } from '@/components/ui/page-header';
import { LoadingScreen, Spinner } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api-client';
import { formatDate } from '@/lib/format';

import { useMfaStatus, useRegisterPasskey, useRemovePasskey, useRemoveTotp } from '../api/mfa';

import { RecoveryCodes } from './recovery-codes';
import { TotpSetup } from './totp-setup';

const failed = (title: string, fallback: string) => (error: unknown) =>
  toast({ variant: 'destructive', title, description: getErrorMessage(error, fallback) });

/**
 * The user's own two-step verification (SEC-26), from the account menu: an authenticator app with
 * its recovery codes, and passkeys. Removing one asks for the password if the sign-in is older
 * than 15 minutes (SEC-25, the api-client's confirm-password dialog).
 */
export function AccountSecurity() {
  const status = useMfaStatus();
  const removeTotp = useRemoveTotp();
  const removePasskey = useRemovePasskey();
  const registerPasskey = useRegisterPasskey();
  const [isSettingUp, setIsSettingUp] = useState(false);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const [passkeyName, setPasskeyName] = useState('');

  if (status.isPending) return <LoadingScreen />;
  if (status.isError) {
    return (
      <Alert variant="destructive">
        <AlertDescription>
          {getErrorMessage(status.error, 'Failed to load two-step verification')}
        </AlertDescription>
      </Alert>
    );
  }
  const { totp, recoveryCodesLeft, passkeys, required } = status.data;
  const hasFactor = totp || passkeys.length > 0;

  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6">
      <PageHeader
        title="Two-Step Verification"
        description="A second step after your password: a code from an authenticator app or a passkey."
      />
      {required && !hasFactor && (
        <Alert>
          <AlertDescription>Your organization requires two-step verification.</AlertDescription>
        </Alert>
      )}

      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <SmartphoneIcon aria-hidden className="size-5" />
            Authenticator app
            <Badge variant={totp ? 'default' : 'secondary'}>{totp ? 'On' : 'Off'}</Badge>
          </CardTitle>
          <CardDescription>
            {totp
              ? `${recoveryCodesLeft} recovery code${recoveryCodesLeft === 1 ? '' : 's'} left.`
              : 'Codes from an app on your phone, with recovery codes for when it is lost.'}
          </CardDescription>
        </CardHeader>
        <CardContent>
          {recoveryCodes ? (
            <RecoveryCodes
              codes={recoveryCodes}
              onDone={() => {
                setRecoveryCodes(null);
                void status.refetch();
              }}
            />
          ) : isSettingUp ? (
            <TotpSetup
              onConfirmed={(codes) => {
                setIsSettingUp(false);
                setRecoveryCodes(codes);
                toast({
                  title: 'Two-Step Verification On',
                  description: 'Save your recovery codes.',
                });
              }}
            />
          ) : totp ? (
            <Button
              variant="outline"
              disabled={removeTotp.isPending}
              onClick={() =>
                removeTotp.mutate(undefined, {
                  onSuccess: () =>
                    toast({
                      title: 'Authenticator Removed',
                      description: 'Codes are no longer asked for.',
                    }),
                  onError: failed('Removal Failed', 'Failed to remove the authenticator'),
                })
              }
            >
              {removeTotp.isPending ? <Spinner /> : <Trash2Icon aria-hidden />}
              Remove Authenticator
            </Button>
          ) : (
            <Button onClick={() => setIsSettingUp(true)}>Set Up Authenticator</Button>
          )}
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <KeyRoundIcon aria-hidden className="size-5" />
            Passkeys
          </CardTitle>
          <CardDescription>
            Sign in with this device&apos;s screen lock or a security key instead of a code.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {passkeys.length === 0 ? (
            <p className="text-sm text-muted-foreground">No passkeys yet.</p>
          ) : (
            <ul className="grid gap-2" aria-label="Passkeys">
              {passkeys.map((passkey) => (
                <li key={passkey.id} className="flex items-center gap-3 rounded-lg border p-3">
                  <div className="grid min-w-0 flex-1 text-sm">
                    <span className="truncate font-medium">{passkey.name}</span>
                    <span className="text-xs text-muted-foreground">
                      Added {formatDate(passkey.createdAt)}
                      {passkey.lastUsedAt && ` · last used ${formatDate(passkey.lastUsedAt)}`}
                    </span>
                  </div>
                  <Button
                    variant="ghost"
                    size="icon"
                    aria-label={`Remove ${passkey.name}`}
                    disabled={removePasskey.isPending}
                    onClick={() =>
                      removePasskey.mutate(passkey.id, {
                        onError: failed('Removal Failed', 'Failed to remove the passkey'),
                      })
                    }
                  >
                    <Trash2Icon aria-hidden />
                  </Button>
                </li>
              ))}
            </ul>
          )}
          <form
            className="flex flex-col gap-2 sm:flex-row sm:items-end"
            onSubmit={(event) => {
              event.preventDefault();
              registerPasskey.mutate(passkeyName.trim() || undefined, {
                onSuccess: () => {
                  setPasskeyName('');
                  toast({ title: 'Passkey Added', description: 'You can sign in with it now.' });
                },
                onError: failed('Passkey Not Added', 'The passkey could not be added'),
              });
            }}
          >
            <Field id="passkey-name" label="Name (optional)" className="flex-1">
              <Input
                id="passkey-name"
                maxLength={60}
                placeholder="e.g. Gate tablet"
                value={passkeyName}
                onChange={(event) => setPasskeyName(event.target.value)}
              />
            </Field>
            <Button type="submit" disabled={registerPasskey.isPending}>
              {registerPasskey.isPending && <Spinner />}
              Add a Passkey
            </Button>
          </form>
        </CardContent>
      </Card>
    </div>
  );
}
