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
  const passkey = useMutation({
    mutationFn: () => registerPasskey(),
    onSuccess: onEnrolled,
    onError: (error) => {
      toast({
        variant: 'destructive',
        title: 'Passkey Not Added',
        description: getErrorMessage(error, 'The passkey could not be added'),
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
          <DialogTitle>Set Up Two-Step Verification</DialogTitle>
          <DialogDescription>
            Your organization requires a second step at sign-in. Set it up to continue.
          </DialogDescription>
        </DialogHeader>
        {recoveryCodes ? (
          <RecoveryCodes codes={recoveryCodes} onDone={onEnrolled} />
        ) : (
          <div className="grid gap-4">
            <TotpSetup onConfirmed={setRecoveryCodes} />
            <div className="flex items-center gap-2 text-xs text-muted-foreground">
              <span className="h-px flex-1 bg-border" /> or{' '}
              <span className="h-px flex-1 bg-border" />
            </div>
            <Button
              type="button"
              variant="outline"
              disabled={passkey.isPending}
              onClick={() => passkey.mutate()}
            >
              {passkey.isPending ? <Spinner /> : <KeyRoundIcon aria-hidden />}
              Use a Passkey Instead
            </Button>
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}
