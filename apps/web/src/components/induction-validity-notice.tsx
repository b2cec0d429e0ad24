import { ShieldAlertIcon, ShieldCheckIcon } from 'lucide-react';

import type { InductionValidity } from '@boomgate/contracts/induction';

import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { useInductionValidity } from '@/lib/api/induction-validity';
import { formatDate } from '@/lib/format';
import { useTranslation } from '@/lib/i18n';

type InductionValidityNoticeProps =
  /** Asks GET /api/induction/status once the ID number is known (Real Gate, Incoming Feed). */
  | { idNumber: string | null | undefined }
  /** Shows a status the server already sent (the auto gate's plate lookup); null shows nothing. */
  | { validity: InductionValidity | null | undefined };

/**
 * The driver's safety induction, shown where the gate knows the driver. A missing or expired
 * induction is a warning for the guard, not a blocker.
 */
export function InductionValidityNotice(props: InductionValidityNoticeProps) {
  const { t } = useTranslation('shared');
  const fetched = useInductionValidity('idNumber' in props ? props.idNumber : null);
  const validity = 'validity' in props ? props.validity : fetched.data;
  if (!validity) return null;
  const { status, validUntil } = validity;
  if (status === 'valid') {
    return (
      <Alert variant="success" data-testid="induction-validity" data-status="valid">
        <ShieldCheckIcon aria-hidden />
        <AlertTitle>{t('inductionNotice.valid')}</AlertTitle>
        <AlertDescription>
          {validUntil && t('inductionNotice.validUntil', { date: formatDate(validUntil) })}
        </AlertDescription>
      </Alert>
    );
  }
  return (
    <Alert variant="warning" role="status" data-testid="induction-validity" data-status={status}>
      <ShieldAlertIcon aria-hidden />
      <AlertTitle>
        {status === 'expired' ? t('inductionNotice.expired') : t('inductionNotice.none')}
      </AlertTitle>
      <AlertDescription>
        {status === 'expired'
          ? t('inductionNotice.expiredOn', {
              date: validUntil ? formatDate(validUntil) : t('inductionNotice.anEarlierDate'),
            })
          : t('inductionNotice.noneDetail')}
      </AlertDescription>
    </Alert>
  );
}
