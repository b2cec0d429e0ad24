import { KeyRoundIcon } from 'lucide-react';
import { useState } from 'react';

import type { IssuedOverridePin } from '@boomgate/contracts/override-pins';

import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api-client';
import { formatTime } from '@/lib/format';
import { useTranslation } from '@/lib/i18n';

import {
  useIssueOverridePin,
  useOverridePinSettings,
  useUpdateOverridePinSettings,
} from '../api/override-pins';

/**
 * Issue 21: supervisor override PINs. An administrator turns them on; a supervisor (tenant_admin,
 * back_office) issues a one-time PIN and tells it to the guard, who overrides one refused entry
 * with it at the gate. The PIN is shown once: the server keeps only a hash.
 */
export function OverridePinsSection({ canEdit }: { canEdit: boolean }) {
  const { t } = useTranslation('settings');
  const settings = useOverridePinSettings();
  const update = useUpdateOverridePinSettings();
  const issue = useIssueOverridePin();
  const [issued, setIssued] = useState<IssuedOverridePin | null>(null);

  const toggle = async (enabled: boolean) => {
    try {
      await update.mutateAsync({ enabled });
    } catch (error) {
      toast({
        variant: 'destructive',
        title: t('pins.saveFailed'),
        description: getErrorMessage(error, t('pins.tryAgain')),
      });
    }
  };
  const issuePin = async () => {
    try {
      setIssued(await issue.mutateAsync());
    } catch (error) {
      toast({
        variant: 'destructive',
        title: t('pins.issueFailed'),
        description: getErrorMessage(error, t('pins.tryAgain')),
      });
    }
  };

  return (
    <Card data-testid="override-pins-section">
      <CardHeader>
        <CardTitle>{t('pins.title')}</CardTitle>
        <CardDescription>
          {t('pins.description', { minutes: settings.data?.validityMinutes ?? 15 })}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="flex items-center gap-2">
          <Checkbox
            id="override-pins-enabled"
            checked={settings.data?.enabled ?? false}
            disabled={!canEdit || !settings.data || update.isPending}
            onCheckedChange={(checked) => void toggle(checked === true)}
          />
          <Label htmlFor="override-pins-enabled">{t('pins.enable')}</Label>
        </div>
        {settings.data?.enabled && (
          <div className="grid gap-2">
            <Button
              className="w-fit"
              variant="outline"
              onClick={() => void issuePin()}
              disabled={issue.isPending}
            >
              {issue.isPending ? <Spinner /> : <KeyRoundIcon aria-hidden />}
              {t('pins.issue')}
            </Button>
            {issued && (
              <p className="text-sm" data-testid="issued-pin">
                <span className="font-mono text-3xl font-bold tracking-widest">{issued.pin}</span>{' '}
                {t('pins.issued', { time: formatTime(issued.expiresAt).slice(0, 5) })}
              </p>
            )}
          </div>
        )}
      </CardContent>
    </Card>
  );
}
