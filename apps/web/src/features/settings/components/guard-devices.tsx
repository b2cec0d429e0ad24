import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api-client';
import { formatDate, formatTime } from '@/lib/format';
import { useTranslation } from '@/lib/i18n';

import { useDevices, useRevokeDevice } from '../api/devices';

/** Issue 18: the guards' devices with an offline queue; an admin revokes a lost one. */
export function GuardDevices() {
  const { t } = useTranslation('offline');
  const { t: tSettings } = useTranslation('settings');
  const devices = useDevices();
  const revoke = useRevokeDevice();

  return (
    <Card data-testid="guard-devices">
      <CardHeader>
        <CardTitle>{t('devices.title')}</CardTitle>
        <CardDescription>{t('devices.description')}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-2">
        {devices.isPending ? (
          <Spinner aria-hidden />
        ) : devices.isError ? (
          <Alert variant="destructive">
            <AlertDescription>
              {getErrorMessage(devices.error, tSettings('devices.loadFailed'))}
            </AlertDescription>
          </Alert>
        ) : devices.data.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t('devices.empty')}</p>
        ) : (
          <ul className="divide-y">
            {devices.data.map((device) => (
              <li key={device.id} className="flex flex-wrap items-center gap-x-4 gap-y-1 py-2">
                <div className="min-w-0 flex-1 text-sm">
                  <p className="truncate font-medium">{device.label ?? device.deviceId}</p>
                  <p className="text-muted-foreground">
                    {t('devices.lastContact')}: {formatDate(device.lastContactAt)}{' '}
                    {formatTime(device.lastContactAt)}
                    {device.lastUser?.name && (
                      <>
                        {' · '}
                        {t('devices.lastUser')}: {device.lastUser.name}
                      </>
                    )}
                  </p>
                </div>
                {device.revokedAt ? (
                  <span className="text-sm font-medium text-destructive">
                    {t('devices.revoked')}
                  </span>
                ) : (
                  <Button
                    type="button"
                    variant="destructive"
                    size="sm"
                    disabled={revoke.isPending}
                    onClick={() =>
                      revoke.mutate(device.id, {
                        onSuccess: () => toast({ title: t('devices.revokedToast') }),
                        onError: (error) =>
                          toast({
                            variant: 'destructive',
                            title: t('devices.revoke'),
                            description: getErrorMessage(error, tSettings('devices.revokeFailed')),
                          }),
                      })
                    }
                  >
                    {t('devices.revoke')}
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
