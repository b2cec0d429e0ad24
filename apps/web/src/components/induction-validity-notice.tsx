import { ShieldAlertIcon, ShieldCheckIcon } from 'lucide-react';

import type { InductionValidity } from '@boomgate/contracts/induction';

import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { useInductionValidity } from '@/lib/api/induction-validity';
import { formatDate } from '@/lib/format';

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
  const fetched = useInductionValidity('idNumber' in props ? props.idNumber : null);
  const validity = 'validity' in props ? props.validity : fetched.data;
  if (!validity) return null;
  const { status, validUntil } = validity;
  if (status === 'valid') {
    return (
      <Alert variant="success" data-testid="induction-validity" data-status="valid">
        <ShieldCheckIcon aria-hidden />
        <AlertTitle>Safety induction valid</AlertTitle>
        <AlertDescription>
          {validUntil && `Valid until ${formatDate(validUntil)}.`}
        </AlertDescription>
      </Alert>
    );
  }
  return (
    <Alert variant="warning" role="status" data-testid="induction-validity" data-status={status}>
      <ShieldAlertIcon aria-hidden />
      <AlertTitle>
        {status === 'expired' ? 'Safety induction expired' : 'No safety induction'}
      </AlertTitle>
      <AlertDescription>
        {status === 'expired'
          ? `The driver's induction expired on ${validUntil ? formatDate(validUntil) : 'an earlier date'}. Arrange a new induction.`
          : 'This driver has not passed a safety induction. Arrange one before they work on site.'}
      </AlertDescription>
    </Alert>
  );
}
