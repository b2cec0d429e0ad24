import { TriangleAlertIcon } from 'lucide-react';

import type { EntryWarning, RefusalReason } from '@boomgate/contracts/entry-checks';

import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/cn';
import { SOURCE_LANGUAGE, useTranslation } from '@/lib/i18n';

/**
 * How a refusal reason reads in English (the spec's words). Screens in the chosen language use
 * `entries:refusal.reasons.<reason>`, which holds the same English texts.
 */
export const REFUSAL_REASON_LABELS: Record<RefusalReason, string> = {
  not_registered: 'Vehicle not pre-registered',
  registration_expired: 'Vehicle registration expired',
  face_mismatch: 'Face verification failed',
  face_error: 'Face verification error',
  guard_refused: 'Refused by the guard',
  watchlist: 'On the watchlist',
  document_rule: 'A document rule failed',
  rig_mismatch: 'Trailer not on the rig or its disc expired',
  offline_grant_not_allowed: 'Granted offline, but this organization only records offline',
};

/** A refused attempt's mark beside its APPROVED/PENDING badge, with the reason as its title. */
export function RefusedMark({ reason }: { reason: RefusalReason | null }) {
  const { t } = useTranslation('entries');
  const label = reason ? t(`refusal.reasons.${reason}`) : t('refusal.refused');
  return (
    <Badge
      variant="destructive"
      title={label}
      aria-label={t('refusal.refusedLabel', { reason: label })}
      data-testid="refused-mark"
    >
      {t('refusal.refused')}
    </Badge>
  );
}

/** An entry holding a critical warning (an expired document): flagged in red wherever it is listed. */
export function hasCriticalWarning(warnings: EntryWarning[]): boolean {
  return warnings.some((warning) => warning.severity === 'critical');
}

/**
 * The server's checks of a saved entry (issue 14): critical ones (an expired document) in red,
 * the rest as warnings to check by hand.
 */
export function EntryWarningsPanel({ warnings }: { warnings: EntryWarning[] }) {
  const { t, i18n } = useTranslation('entries');
  if (warnings.length === 0) return null;
  const isCritical = hasCriticalWarning(warnings);
  return (
    <Alert variant={isCritical ? 'destructive' : 'warning'} data-testid="verification-warnings">
      <TriangleAlertIcon aria-hidden />
      <AlertTitle>{t('warnings.title')}</AlertTitle>
      <AlertDescription className="text-current">
        <ul className="list-disc pl-4">
          {warnings.map((warning, index) => (
            <li
              key={`${warning.code}-${index}`}
              data-severity={warning.severity}
              className={cn(warning.severity === 'critical' && 'font-semibold text-destructive')}
            >
              {/* The server's sentence is English and carries the specifics (dates, plates);
                  another language puts the warning's kind, by its code, in front of it. */}
              {i18n.language === SOURCE_LANGUAGE
                ? warning.message
                : `${t(`warnings.codes.${warning.code}`)}: ${warning.message}`}
            </li>
          ))}
        </ul>
        <p className="text-xs">{t('warnings.hint')}</p>
      </AlertDescription>
    </Alert>
  );
}
