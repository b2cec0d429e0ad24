import { useState } from 'react';

import { type AlertSettings, AlertSettingsSchema } from '@boomgate/contracts/alerts';

import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api-client';
import { useSites } from '@/lib/api/sites';
import { contractMessage, useTranslation } from '@/lib/i18n';

import { useAlertSettings, useUpdateAlertSettings } from '../api/alerts';
import { AlertRulesTable } from './alert-rules-table';
import { PushSubscribeButton } from './push-subscribe-button';
import { QuietHoursFields } from './quiet-hours-fields';

/** Settings → Alerts: where each kind of alert goes (per site), e-mail, quiet hours, repeats. */
export function AlertSettingsSection() {
  const { t } = useTranslation('alerts');
  const settings = useAlertSettings();
  if (settings.isPending) return <Spinner />;
  if (settings.isError) {
    return (
      <p role="alert" className="text-destructive">
        {getErrorMessage(settings.error, t('settings.loadFailed'))}
      </p>
    );
  }
  return <AlertSettingsForm initial={settings.data} />;
}

function AlertSettingsForm({ initial }: { initial: AlertSettings }) {
  const { t } = useTranslation('alerts');
  const update = useUpdateAlertSettings();
  const sites = useSites().data ?? [];
  const [draft, setDraft] = useState(initial);
  const [recipients, setRecipients] = useState(initial.emailRecipients.join('\n'));
  const [rulesSiteId, setRulesSiteId] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const change = (patch: Partial<AlertSettings>) =>
    setDraft((current) => ({ ...current, ...patch }));

  const save = () => {
    const candidate = {
      ...draft,
      emailRecipients: recipients
        .split(/[\s,;]+/)
        .map((address) => address.trim())
        .filter(Boolean),
    };
    const parsed = AlertSettingsSchema.safeParse(candidate);
    if (!parsed.success) {
      setProblem(contractMessage(parsed.error.issues[0]?.message) ?? t('settings.checkSettings'));
      return;
    }
    setProblem(null);
    update.mutate(parsed.data, {
      onSuccess: (saved) => {
        setDraft(saved);
        setRecipients(saved.emailRecipients.join('\n'));
        toast({ title: t('settings.saved') });
      },
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: t('settings.saveFailed'),
          description: getErrorMessage(error, t('settings.saveFailedDescription')),
        }),
    });
  };

  return (
    <Card data-testid="alert-settings">
      <CardHeader>
        <CardTitle>{t('settings.title')}</CardTitle>
        <CardDescription>{t('settings.description')}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        <AlertRulesTable
          routes={draft.routes}
          sites={sites}
          siteId={rulesSiteId}
          onSiteChange={setRulesSiteId}
          onChange={(routes) => change({ routes })}
        />

        <div className="grid gap-2">
          <Label htmlFor="alert-email-recipients">{t('settings.recipients')}</Label>
          <textarea
            id="alert-email-recipients"
            className="min-h-20 rounded-md border bg-background p-2 text-sm"
            value={recipients}
            onChange={(event) => setRecipients(event.target.value)}
          />
        </div>

        <QuietHoursFields
          quietHours={draft.quietHours}
          siteQuietHours={draft.siteQuietHours}
          sites={sites}
          onChange={change}
        />

        <div className="grid gap-4 sm:grid-cols-2">
          <div className="grid gap-2">
            <Label htmlFor="alert-repeat-minutes">{t('settings.repeatMinutes')}</Label>
            <Input
              id="alert-repeat-minutes"
              type="number"
              min={5}
              max={1440}
              value={draft.repeatEveryMinutes}
              onChange={(event) => change({ repeatEveryMinutes: Number(event.target.value) })}
            />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="alert-feed-minutes">{t('settings.feedMinutes')}</Label>
            <Input
              id="alert-feed-minutes"
              type="number"
              min={1}
              max={10080}
              value={draft.feedUnprocessedMinutes}
              onChange={(event) => change({ feedUnprocessedMinutes: Number(event.target.value) })}
            />
          </div>
        </div>

        {problem && (
          <p role="alert" className="text-sm text-destructive">
            {problem}
          </p>
        )}
        <div className="flex flex-wrap items-center gap-2">
          <Button onClick={save} disabled={update.isPending}>
            {update.isPending ? t('settings.saving') : t('settings.save')}
          </Button>
          <PushSubscribeButton />
        </div>
      </CardContent>
    </Card>
  );
}
