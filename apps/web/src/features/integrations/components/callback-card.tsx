import { type FormEvent, useState } from 'react';

import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage, isHttpError } from '@/lib/api-client';
import { Trans, useTranslation } from '@/lib/i18n';

import { useSetCallbackUrl } from '../api/integrations';

/** Where the completion callbacks go; a receiver that asked to stop shows why. */
export function CallbackCard({
  callbackUrl,
  disabledAt,
  disabledReason,
}: {
  callbackUrl: string | null;
  disabledAt: string | null;
  disabledReason: string | null;
}) {
  const { t } = useTranslation('integrations');
  const setCallbackUrl = useSetCallbackUrl();
  const [value, setValue] = useState(callbackUrl ?? '');
  const [error, setError] = useState<string | null>(null);

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setCallbackUrl.mutate(
      { callbackUrl: value.trim() || null },
      {
        onSuccess: () =>
          toast({
            title: t('callback.saved'),
            description: value.trim() ? t('callback.savedDetail') : t('callback.off'),
          }),
        onError: (failure) => {
          const message = getErrorMessage(failure, t('callback.failed'));
          if (isHttpError(failure, 400)) setError(message);
          toast({ variant: 'destructive', title: t('error'), description: message });
        },
      },
    );
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('callback.title')}</CardTitle>
        <CardDescription>
          <Trans t={t} i18nKey="callback.description" components={{ code: <code /> }} />
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form className="grid gap-3" onSubmit={handleSubmit} noValidate>
          {disabledAt && (
            <Alert variant="destructive">
              <AlertTitle>{t('callback.disabled')}</AlertTitle>
              <AlertDescription>
                {disabledReason ?? t('callback.receiverStopped')} {t('callback.reenable')}
              </AlertDescription>
            </Alert>
          )}
          <div className="grid gap-2">
            <Label htmlFor="callback-url">{t('callback.label')}</Label>
            <Input
              id="callback-url"
              type="url"
              placeholder="https://example.com/boomgate/callback"
              value={value}
              onChange={(event) => setValue(event.target.value)}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'callback-url-error' : undefined}
            />
            {error && (
              <p id="callback-url-error" role="alert" className="text-sm text-destructive">
                {error}
              </p>
            )}
          </div>
          <div>
            <Button type="submit" disabled={setCallbackUrl.isPending}>
              {setCallbackUrl.isPending && <Spinner />}
              {t('callback.save')}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
