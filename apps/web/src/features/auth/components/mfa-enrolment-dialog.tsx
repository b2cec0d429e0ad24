import { useMutation } from '@tanstack/react-query';
import { KeyRoundIcon } from 'lucide-react';
import { useState } from 'react';

import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api-client';
import { useTranslation } from '@/lib/i18n';

import { registerPasskey } from '../api/mfa';

import { RecoveryCodes } from './recovery-codes';
import { TotpSetup } from './totp-setup';

/**
 * SEC-26: the organization requires two-step verification and this account has none. Like the
 * forced password change, the sign-in goes no further until one is set up.
 */
export function MfaEnrolmentDialog({
  onEnrolled,
  onCancel,
}: {
  onEnrolled: () => void;
  onCancel: () => void;
}) {
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const { t } = useTranslation('mfa');
  const passkey = useMutation({
    mutationFn: () => registerPasskey(),
    onSuccess: onEnrolled,
    onError: (error) => {
      toast({
        variant: 'destructive',
        title: t('enrolment.passkeyNotAdded'),
        description: getErrorMessage(error, t('enrolment.passkeyFailed')),
      });
    },
  });

  return (
    <Dialog
      open
      onOpenChange={(isOpen) => {
        if (!isOpen) onCancel();
      }}
    >
      <DialogContent
        data-testid="mfa-enrolment-dialog"
        onInteractOutside={(event) => event.preventDefault()}
      >
        <DialogHeader>
          <DialogTitle>{t('enrolment.title')}</DialogTitle>
          <DialogDescription>{t('enrolment.description')}</DialogDescription>
        </DialogHeader>
        {recoveryCodes ? (
          <RecoveryCodes codes={recoveryCodes} onDone={onEnrolled} />
        ) : (
          <div className="grid gap-4">
            <TotpSetup onConfirmed={setRecoveryCodes} />
            <div className="flex items-center gap-2 text-xs text-muted-foreground">
              <span className="h-px flex-1 bg-border" /> {t('enrolment.or')}{' '}
              <span className="h-px flex-1 bg-border" />
            </div>
            <Button
              type="button"
              variant="outline"
              disabled={passkey.isPending}
              onClick={() => passkey.mutate()}
            >
              {passkey.isPending ? <Spinner /> : <KeyRoundIcon aria-hidden />}
              {t('enrolment.usePasskeyInstead')}
            </Button>
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}
