import { useState } from 'react';

import {
  ALERT_CHANNELS,
  ALERT_KINDS,
  ALERT_SEVERITIES,
  type AlertChannel,
  type AlertKind,
  type AlertRoute,
  type AlertSettings,
  AlertSettingsSchema,
  type AlertSeverity,
} from '@boomgate/contracts/alerts';

import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api-client';

import { useAlertSettings, useUpdateAlertSettings } from '../api/alerts';
import { PushSubscribeButton } from './push-subscribe-button';

const CHANNEL_LABELS: Record<AlertChannel, string> = {
  email: 'E-mail',
  webhook: 'Webhook',
  push: 'Push',
};

const kindLabel = (kind: AlertKind) =>
  kind.replaceAll('_', ' ').replace(/^./, (first) => first.toUpperCase());

/** The general (all sites) rule of a kind; a missing one sends nowhere but the bell. */
const generalRule = (routes: AlertRoute[], kind: AlertKind): AlertRoute =>
  routes.find((route) => route.kind === kind && route.siteId === null) ?? {
    kind,
    siteId: null,
    channels: [],
    minSeverity: 'info',
  };

/** Settings → Alerts: where each kind of alert goes, who gets e-mail, quiet hours, repeats. */
export function AlertSettingsSection() {
  const settings = useAlertSettings();
  if (settings.isPending) return <Spinner />;
  if (settings.isError) {
    return (
      <p role="alert" className="text-destructive">
        {getErrorMessage(settings.error, 'Failed to load the alert settings')}
      </p>
    );
  }
  return <AlertSettingsForm initial={settings.data} />;
}

function AlertSettingsForm({ initial }: { initial: AlertSettings }) {
  const update = useUpdateAlertSettings();
  const [draft, setDraft] = useState(initial);
  const [recipients, setRecipients] = useState(initial.emailRecipients.join('\n'));
  const [problem, setProblem] = useState<string | null>(null);

  const setRule = (kind: AlertKind, change: Partial<AlertRoute>) =>
    setDraft((current) => {
      const rule = { ...generalRule(current.routes, kind), ...change };
      const others = current.routes.filter(
        (route) => !(route.kind === kind && route.siteId === null),
      );
      return { ...current, routes: [...others, rule] };
    });

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
      setProblem(parsed.error.issues[0]?.message ?? 'Check the alert settings');
      return;
    }
    setProblem(null);
    update.mutate(parsed.data, {
      onSuccess: (saved) => {
        setDraft(saved);
        setRecipients(saved.emailRecipients.join('\n'));
        toast({ title: 'Alert settings saved' });
      },
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: 'Save Failed',
          description: getErrorMessage(error, 'Failed to save the alert settings'),
        }),
    });
  };

  return (
    <Card data-testid="alert-settings">
      <CardHeader>
        <CardTitle>Alerts</CardTitle>
        <CardDescription>
          Every alert shows in the bell. Choose which also go by e-mail, to your webhook and as a
          push notification, and from which severity. Critical alerts repeat until acknowledged.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        <div className="overflow-x-auto">
          <table className="w-full text-sm">
            <thead>
              <tr className="text-left">
                <th className="py-1 pr-4 font-medium">Event</th>
                {ALERT_CHANNELS.map((channel) => (
                  <th key={channel} className="px-2 py-1 font-medium">
                    {CHANNEL_LABELS[channel]}
                  </th>
                ))}
                <th className="px-2 py-1 font-medium">From severity</th>
              </tr>
            </thead>
            <tbody>
              {ALERT_KINDS.map((kind) => {
                const rule = generalRule(draft.routes, kind);
                return (
                  <tr key={kind} className="border-t">
                    <td className="py-2 pr-4">{kindLabel(kind)}</td>
                    {ALERT_CHANNELS.map((channel) => (
                      <td key={channel} className="px-2 py-2">
                        <Checkbox
                          aria-label={`${kindLabel(kind)}: ${CHANNEL_LABELS[channel]}`}
                          checked={rule.channels.includes(channel)}
                          onCheckedChange={(checked) =>
                            setRule(kind, {
                              channels:
                                checked === true
                                  ? [...new Set([...rule.channels, channel])]
                                  : rule.channels.filter((item) => item !== channel),
                            })
                          }
                        />
                      </td>
                    ))}
                    <td className="px-2 py-2">
                      <select
                        aria-label={`${kindLabel(kind)}: from severity`}
                        className="h-8 rounded-md border bg-background px-2"
                        value={rule.minSeverity}
                        onChange={(event) =>
                          setRule(kind, { minSeverity: event.target.value as AlertSeverity })
                        }
                      >
                        {ALERT_SEVERITIES.map((severity) => (
                          <option key={severity} value={severity}>
                            {severity}
                          </option>
                        ))}
                      </select>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>

        <div className="grid gap-2">
          <Label htmlFor="alert-email-recipients">E-mail recipients (one per line)</Label>
          <textarea
            id="alert-email-recipients"
            className="min-h-20 rounded-md border bg-background p-2 text-sm"
            value={recipients}
            onChange={(event) => setRecipients(event.target.value)}
          />
        </div>

        <div className="grid gap-2">
          <div className="flex items-center gap-3">
            <Checkbox
              id="alert-quiet-hours"
              checked={draft.quietHours !== null}
              onCheckedChange={(checked) =>
                setDraft((current) => ({
                  ...current,
                  quietHours:
                    checked === true
                      ? { start: '22:00', end: '06:00', minSeverity: 'critical' }
                      : null,
                }))
              }
            />
            <Label htmlFor="alert-quiet-hours">
              Quiet hours (site time): only critical alerts by e-mail and push
            </Label>
          </div>
          {draft.quietHours && (
            <div className="flex flex-wrap items-center gap-2">
              <Label htmlFor="alert-quiet-start">From</Label>
              <Input
                id="alert-quiet-start"
                type="time"
                className="w-32"
                value={draft.quietHours.start}
                onChange={(event) =>
                  setDraft((current) => ({
                    ...current,
                    quietHours: current.quietHours && {
                      ...current.quietHours,
                      start: event.target.value,
                    },
                  }))
                }
              />
              <Label htmlFor="alert-quiet-end">to</Label>
              <Input
                id="alert-quiet-end"
                type="time"
                className="w-32"
                value={draft.quietHours.end}
                onChange={(event) =>
                  setDraft((current) => ({
                    ...current,
                    quietHours: current.quietHours && {
                      ...current.quietHours,
                      end: event.target.value,
                    },
                  }))
                }
              />
            </div>
          )}
        </div>

        <div className="grid gap-4 sm:grid-cols-2">
          <div className="grid gap-2">
            <Label htmlFor="alert-repeat-minutes">Repeat critical alerts every (minutes)</Label>
            <Input
              id="alert-repeat-minutes"
              type="number"
              min={5}
              max={1440}
              value={draft.repeatEveryMinutes}
              onChange={(event) =>
                setDraft((current) => ({
                  ...current,
                  repeatEveryMinutes: Number(event.target.value),
                }))
              }
            />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="alert-feed-minutes">
              Alert when an incoming entry waits longer than (minutes)
            </Label>
            <Input
              id="alert-feed-minutes"
              type="number"
              min={1}
              max={10080}
              value={draft.feedUnprocessedMinutes}
              onChange={(event) =>
                setDraft((current) => ({
                  ...current,
                  feedUnprocessedMinutes: Number(event.target.value),
                }))
              }
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
            {update.isPending ? 'Saving...' : 'Save alert settings'}
          </Button>
          <PushSubscribeButton />
        </div>
      </CardContent>
    </Card>
  );
}
