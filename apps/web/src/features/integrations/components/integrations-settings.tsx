import { CopyIcon, KeyRoundIcon, RotateCcwIcon, TriangleAlertIcon } from 'lucide-react';
import { type FormEvent, useState } from 'react';

import type { IntegrationSecret, WebhookDelivery } from '@boomgate/contracts/webhooks';

import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { PageHeader } from '@/components/ui/page-header';
import { LoadingScreen, Spinner } from '@/components/ui/spinner';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage, isHttpError } from '@/lib/api-client';
import { formatDate, formatTime } from '@/lib/format';

import {
  useDeliveries,
  useIntegration,
  useReplayDelivery,
  useRotateSecret,
  useSetCallbackUrl,
} from '../api/integrations';

import { AnprCameras } from './anpr-cameras';

const when = (value: string | null) => (value ? `${formatDate(value)} ${formatTime(value)}` : '-');

async function copy(text: string, what: string) {
  try {
    await navigator.clipboard.writeText(text);
    toast({ title: 'Copied', description: `${what} copied to the clipboard.` });
  } catch {
    toast({
      variant: 'destructive',
      title: 'Copy Failed',
      description: 'Select the text and copy it by hand.',
    });
  }
}

function CopyField({ id, label, value }: { id: string; label: string; value: string }) {
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <div className="flex gap-2">
        <Input
          id={id}
          readOnly
          value={value}
          className="font-mono"
          onFocus={(e) => e.target.select()}
        />
        <Button
          type="button"
          variant="outline"
          onClick={() => void copy(value, label)}
          aria-label={`Copy ${label}`}
        >
          <CopyIcon aria-hidden />
        </Button>
      </div>
    </div>
  );
}

function SecretCard({ hasSecret, createdAt }: { hasSecret: boolean; createdAt: string | null }) {
  const rotate = useRotateSecret();
  const [revealed, setRevealed] = useState<IntegrationSecret | null>(null);

  const handleRotate = () => {
    rotate.mutate(undefined, {
      onSuccess: (secret) => {
        setRevealed(secret);
        toast({
          title: hasSecret ? 'Secret Rotated' : 'Secret Created',
          description: 'Copy it now: it will not be shown again.',
        });
      },
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: 'Error',
          description: getErrorMessage(error, 'Failed to create the secret'),
        }),
    });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <KeyRoundIcon aria-hidden className="size-5" />
          Integration Secret
        </CardTitle>
        <CardDescription>
          Signs what external systems send to Boomgate and the callbacks Boomgate sends back
          (Standard Webhooks).
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <p className="text-sm" data-testid="secret-status">
          {hasSecret
            ? `A secret exists${createdAt ? ` (created ${when(createdAt)})` : ''}.`
            : 'No secret yet: incoming requests are refused until one is created.'}
        </p>
        {hasSecret && !revealed && (
          <p className="text-sm text-muted-foreground">
            Rotating issues a new secret; the current one keeps being accepted for a while so the
            sending system can switch over.
          </p>
        )}
        {revealed && (
          <Alert variant="warning" data-testid="new-secret">
            <TriangleAlertIcon aria-hidden />
            <AlertTitle>Copy this secret now</AlertTitle>
            <AlertDescription className="grid gap-3">
              <p>
                It is shown only once. Store it in the sending system; Boomgate cannot show it
                again.
              </p>
              <CopyField
                id="integration-secret"
                label="Integration secret"
                value={revealed.secret}
              />
              {revealed.previousSecretExpiresAt && (
                <p>
                  The previous secret is still accepted until{' '}
                  {when(revealed.previousSecretExpiresAt)}.
                </p>
              )}
              <Button type="button" variant="outline" onClick={() => setRevealed(null)}>
                I have stored it
              </Button>
            </AlertDescription>
          </Alert>
        )}
        <div>
          <Button onClick={handleRotate} disabled={rotate.isPending}>
            {rotate.isPending && <Spinner />}
            {hasSecret ? 'Rotate Secret' : 'Create Secret'}
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}

function CallbackCard({
  callbackUrl,
  disabledAt,
  disabledReason,
}: {
  callbackUrl: string | null;
  disabledAt: string | null;
  disabledReason: string | null;
}) {
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
            title: 'Callback URL Saved',
            description: value.trim() ? 'Callbacks go to the new URL.' : 'Callbacks are off.',
          }),
        onError: (failure) => {
          const message = getErrorMessage(failure, 'Failed to save the callback URL');
          if (isHttpError(failure, 400)) setError(message);
          toast({ variant: 'destructive', title: 'Error', description: message });
        },
      },
    );
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Callback URL</CardTitle>
        <CardDescription>
          Where Boomgate posts <code>incoming-request.completed</code> when an entry is processed.
          Leave blank to send no callbacks.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form className="grid gap-3" onSubmit={handleSubmit} noValidate>
          {disabledAt && (
            <Alert variant="destructive">
              <AlertTitle>Callbacks are disabled</AlertTitle>
              <AlertDescription>
                {disabledReason ?? 'The receiver asked us to stop.'} Save the URL again to re-enable
                them.
              </AlertDescription>
            </Alert>
          )}
          <div className="grid gap-2">
            <Label htmlFor="callback-url">Callback URL</Label>
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
              Save Callback URL
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

const STATUS_VARIANT = {
  delivered: 'success',
  pending: 'secondary',
  failed: 'destructive',
} as const satisfies Record<WebhookDelivery['status'], 'success' | 'secondary' | 'destructive'>;

function DeliveriesCard() {
  const deliveries = useDeliveries();
  const replay = useReplayDelivery();

  const handleReplay = (delivery: WebhookDelivery) =>
    replay.mutate(delivery.id, {
      onSuccess: () =>
        toast({ title: 'Replay Queued', description: 'The callback will be sent again.' }),
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: 'Error',
          description: getErrorMessage(error, 'Failed to replay the delivery'),
        }),
    });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Delivery Log</CardTitle>
        <CardDescription>Callbacks sent to your callback URL, newest first.</CardDescription>
      </CardHeader>
      <CardContent>
        {deliveries.isPending ? (
          <LoadingScreen label="Loading deliveries..." />
        ) : deliveries.isError ? (
          <p role="alert" className="text-sm text-destructive">
            {getErrorMessage(deliveries.error, 'Failed to load deliveries')}
          </p>
        ) : deliveries.data.length === 0 ? (
          <p className="py-6 text-center text-sm text-muted-foreground">No deliveries yet</p>
        ) : (
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Created</TableHead>
                <TableHead>Event</TableHead>
                <TableHead>Status</TableHead>
                <TableHead>Attempts</TableHead>
                <TableHead>Last Response</TableHead>
                <TableHead>Next Retry</TableHead>
                <TableHead>Action</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {deliveries.data.map((delivery) => (
                <TableRow key={delivery.id} data-testid="delivery-row">
                  <TableCell>{when(delivery.createdAt)}</TableCell>
                  <TableCell className="font-mono text-xs">{delivery.eventType}</TableCell>
                  <TableCell>
                    <Badge variant={STATUS_VARIANT[delivery.status]}>{delivery.status}</Badge>
                  </TableCell>
                  <TableCell>
                    {delivery.attempts} / {delivery.maxAttempts}
                  </TableCell>
                  <TableCell title={delivery.lastError ?? undefined}>
                    {delivery.lastResponseStatus ?? (delivery.lastError ? 'No response' : '-')}
                  </TableCell>
                  <TableCell>
                    {delivery.status === 'pending' ? when(delivery.nextAttemptAt) : '-'}
                  </TableCell>
                  <TableCell>
                    <Button
                      size="sm"
                      variant="outline"
                      onClick={() => handleReplay(delivery)}
                      disabled={replay.isPending}
                    >
                      <RotateCcwIcon aria-hidden />
                      Replay
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}

/** Integrations (tenant_admin, super_admin): inbound URL, secret, callback URL and delivery log. */
export function IntegrationsSettings() {
  const integration = useIntegration();

  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-6">
      <PageHeader
        title="Integrations"
        description="Connect external systems that send vehicle entries and receive completion callbacks."
      />
      {integration.isPending ? (
        <LoadingScreen label="Loading integration..." />
      ) : integration.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {getErrorMessage(integration.error, 'Failed to load the integration settings')}
        </p>
      ) : (
        <>
          <Card>
            <CardHeader>
              <CardTitle>Inbound URL</CardTitle>
              <CardDescription>
                Give this address to the integrator: they post signed vehicle entries to it.
              </CardDescription>
            </CardHeader>
            <CardContent>
              <CopyField
                id="inbound-url"
                label="Inbound URL"
                value={`${window.location.origin}${integration.data.incomingUrl}`}
              />
            </CardContent>
          </Card>
          <SecretCard
            hasSecret={integration.data.hasSecret}
            createdAt={integration.data.secretCreatedAt}
          />
          <CallbackCard
            callbackUrl={integration.data.callbackUrl}
            disabledAt={integration.data.callbackDisabledAt}
            disabledReason={integration.data.callbackDisabledReason}
          />
          <DeliveriesCard />
          <AnprCameras />
        </>
      )}
    </div>
  );
}
