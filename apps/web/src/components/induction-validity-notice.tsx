import { ShieldAlertIcon, ShieldCheckIcon } from 'lucide-react';

import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { useInductionValidity } from '@/lib/api/induction-validity';
import { formatDate } from '@/lib/format';

/**
 * The driver's safety induction, shown where the gate knows their ID number. A missing or expired
 * induction is a warning for the guard, not a blocker.
 */
export function InductionValidityNotice({ idNumber }: { idNumber: string | null | undefined }) {
  const validity = useInductionValidity(idNumber);
  if (!validity.data) return null;
  const { status, validUntil } = validity.data;
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
