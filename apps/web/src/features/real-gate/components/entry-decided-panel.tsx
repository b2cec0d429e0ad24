import { RotateCcwIcon, ShieldCheckIcon, ShieldXIcon, TriangleAlertIcon } from 'lucide-react';

import type { EntryLog } from '@boomgate/contracts/entry-logs';

import { OverrideNote, PinOverrideButton } from '@/components/entry-override';
import { EntryWarningsPanel, REFUSAL_REASON_LABELS } from '@/components/entry-warnings';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { i18next, useTranslation } from '@/lib/i18n';
import { formatPlate } from '@/lib/plates';

import type { RealGateState } from './real-gate-machine';

/** How the server's refusal reason reads on the panel and its toast. */
export const refusalLabel = (reason: EntryLog['refusalReason']) =>
  (reason ? REFUSAL_REASON_LABELS[reason] : undefined) ??
  i18next.t('realGate:decided.refusedFallback');

/** Issue 21: refusals by the server's rules, which a supervisor (or the supervisor's PIN) may override. */
const RULES_REFUSALS = new Set<string>(['watchlist', 'document_rule', 'rig_mismatch']);

export function WarningsPanel({ warnings }: { warnings: string[] }) {
  const { t } = useTranslation('realGate');
  if (warnings.length === 0) return null;
  return (
    <Alert variant="warning" data-testid="verification-warnings">
      <TriangleAlertIcon aria-hidden />
      <AlertTitle>{t('warnings.title')}</AlertTitle>
      <AlertDescription className="text-current">
        <ul className="list-disc pl-4">
          {warnings.map((warning) => (
            <li key={warning}>{warning}</li>
          ))}
        </ul>
        <p className="text-xs">{t('warnings.hint')}</p>
      </AlertDescription>
    </Alert>
  );
}

/**
 * The saved entry as the server recorded it: driver details by the spec's precedence from the
 * saved documents, and the server's checks (an expired document in red).
 */
export function EntryDecidedPanel({
  state,
  entry,
  canPinOverride,
  onOverridden,
}: {
  state: RealGateState;
  entry: EntryLog;
  canPinOverride: boolean;
  onOverridden: (entry: EntryLog) => void;
}) {
  const { t } = useTranslation('realGate');
  const name = [entry.driverName, entry.driverSurname].filter(Boolean).join(' ');
  const driver = { driverIdNumber: entry.driverIdNumber };
  return (
    <Card
      className={entry.entryGranted ? 'border-success' : 'border-destructive'}
      data-testid={entry.entryGranted ? 'entry-granted-panel' : 'entry-refused-panel'}
    >
      <CardHeader className="items-center text-center">
        {entry.entryGranted ? (
          <ShieldCheckIcon aria-hidden className="size-14 text-success" />
        ) : (
          <ShieldXIcon aria-hidden className="size-14 text-destructive" />
        )}
        <h2 className="text-2xl font-semibold leading-none">
          {entry.entryGranted ? t('decided.granted') : t('decided.refused')}
        </h2>
        {!entry.entryGranted && (
          <p className="text-sm text-muted-foreground" data-testid="refusal-reason">
            {refusalLabel(entry.refusalReason)}
          </p>
        )}
      </CardHeader>
      <CardContent className="grid gap-4">
        <dl className="grid gap-2 text-sm sm:grid-cols-2">
          <div>
            <dt className="text-muted-foreground">{t('decided.plateNumber')}</dt>
            <dd className="font-mono text-lg font-semibold">
              {state.data.plate ? formatPlate(state.data.plate.plateNumber) : '-'}
            </dd>
          </div>
          <div>
            <dt className="text-muted-foreground">{t('decided.driver')}</dt>
            <dd className="font-semibold">{name || '-'}</dd>
          </div>
          <div>
            <dt className="text-muted-foreground">{t('decided.idNumber')}</dt>
            <dd className="font-semibold">{driver.driverIdNumber ?? '-'}</dd>
          </div>
          <div>
            <dt className="text-muted-foreground">{t('decided.preRegistration')}</dt>
            <dd className="font-semibold">
              {entry.vehicleApproved
                ? t('summary.vehicleApproved')
                : t('summary.vehicleNotPreRegistered')}
            </dd>
          </div>
          {(entry.trailerPlates?.length ?? 0) > 0 && (
            <div>
              <dt className="text-muted-foreground">{t('decided.trailers')}</dt>
              <dd className="font-mono font-semibold" data-testid="entry-trailers">
                {entry.trailerPlates?.map((plate) => formatPlate(plate)).join(', ')}
              </dd>
            </div>
          )}
        </dl>
        <EntryWarningsPanel warnings={entry.warnings} />
        <OverrideNote entry={entry} />
        {/* Issue 21: a refusal by the server's rules, overridden with a supervisor's one-time PIN. */}
        {canPinOverride &&
          !entry.entryGranted &&
          entry.refusalReason !== null &&
          RULES_REFUSALS.has(entry.refusalReason) && (
            <PinOverrideButton
              entryId={entry.id}
              plateNumber={entry.plateNumber}
              onOverridden={onOverridden}
            />
          )}
        <Button size="lg" onClick={() => window.location.reload()}>
          <RotateCcwIcon aria-hidden />
          {t('decided.next')}
        </Button>
      </CardContent>
    </Card>
  );
}
