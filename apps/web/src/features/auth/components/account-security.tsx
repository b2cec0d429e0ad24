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
import { useTranslation } from '@/lib/i18n';

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
  const { t } = useTranslation('mfa', { keyPrefix: 'account' });
  const { t: tMfa } = useTranslation('mfa');

  if (status.isPending) return <LoadingScreen />;
  if (status.isError) {
    return (
      <Alert variant="destructive">
        <AlertDescription>{getErrorMessage(status.error, t('loadFailed'))}</AlertDescription>
      </Alert>
    );
  }
  const { totp, recoveryCodesLeft, passkeys, required } = status.data;
  const hasFactor = totp || passkeys.length > 0;

  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6">
      <PageHeader title={t('title')} description={t('description')} />
      {required && !hasFactor && (
        <Alert>
          <AlertDescription>{t('required')}</AlertDescription>
        </Alert>
      )}

      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <SmartphoneIcon aria-hidden className="size-5" />
            {t('authenticator')}
            <Badge variant={totp ? 'default' : 'secondary'}>{totp ? t('on') : t('off')}</Badge>
          </CardTitle>
          <CardDescription>
            {totp ? t('codesLeft', { count: recoveryCodesLeft }) : t('authenticatorHint')}
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
                  title: t('onTitle'),
                  description: t('onDescription'),
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
                      title: t('removedTitle'),
                      description: t('removedDescription'),
                    }),
                  onError: failed(t('removalFailed'), t('removeAuthenticatorFailed')),
                })
              }
            >
              {removeTotp.isPending ? <Spinner /> : <Trash2Icon aria-hidden />}
              {t('removeAuthenticator')}
            </Button>
          ) : (
            <Button onClick={() => setIsSettingUp(true)}>{t('setUpAuthenticator')}</Button>
          )}
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <KeyRoundIcon aria-hidden className="size-5" />
            {t('passkeys')}
          </CardTitle>
          <CardDescription>{t('passkeysHint')}</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {passkeys.length === 0 ? (
            <p className="text-sm text-muted-foreground">{t('noPasskeys')}</p>
          ) : (
            <ul className="grid gap-2" aria-label={t('passkeys')}>
              {passkeys.map((passkey) => (
                <li key={passkey.id} className="flex items-center gap-3 rounded-lg border p-3">
                  <div className="grid min-w-0 flex-1 text-sm">
                    <span className="truncate font-medium">{passkey.name}</span>
                    <span className="text-xs text-muted-foreground">
                      {t('added', { date: formatDate(passkey.createdAt) })}
                      {passkey.lastUsedAt &&
                        t('lastUsed', { date: formatDate(passkey.lastUsedAt) })}
                    </span>
                  </div>
                  <Button
                    variant="ghost"
                    size="icon"
                    aria-label={t('remove', { name: passkey.name })}
                    disabled={removePasskey.isPending}
                    onClick={() =>
                      removePasskey.mutate(passkey.id, {
                        onError: failed(t('removalFailed'), t('removePasskeyFailed')),
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
                  toast({
                    title: t('passkeyAddedTitle'),
                    description: t('passkeyAddedDescription'),
                  });
                },
                onError: failed(tMfa('enrolment.passkeyNotAdded'), tMfa('enrolment.passkeyFailed')),
              });
            }}
          >
            <Field id="passkey-name" label={t('passkeyName')} className="flex-1">
              <Input
                id="passkey-name"
                maxLength={60}
                placeholder={t('passkeyPlaceholder')}
                value={passkeyName}
                onChange={(event) => setPasskeyName(event.target.value)}
              />
            </Field>
            <Button type="submit" disabled={registerPasskey.isPending}>
              {registerPasskey.isPending && <Spinner />}
              {t('addPasskey')}
            </Button>
          </form>
        </CardContent>
      </Card>
    </div>
  );
}
