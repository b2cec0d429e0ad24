import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useLocation } from 'wouter';

import { ChangePasswordFormSchema } from '@boomgate/contracts/auth';
import { afterPasswordChangePathFor } from '@boomgate/contracts/role-paths';

import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';
import { useTranslation } from '@/lib/i18n';
import { getErrorMessage } from '@/lib/api-client';
import { firstErrorMessage } from '@/lib/form-errors';

import { useChangePassword } from '../api/change-password';
import { setSession } from '../api/get-session';

/** The forced password change after a login that carried requirePasswordChange (spec §4). */
export function ChangePasswordDialog({
  open,
  onOpenChange,
  currentPassword,
  onEnrolmentRequired,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  currentPassword: string;
  /** The organization requires two-step verification this account has not set up (SEC-26). */
  onEnrolmentRequired?: () => void;
}) {
  const [, navigate] = useLocation();
  const changePassword = useChangePassword();
  const { t } = useTranslation('auth');
  const queryClient = useQueryClient();
  const form = useForm({
    resolver: zodResolver(ChangePasswordFormSchema),
    defaultValues: { newPassword: '', confirmPassword: '' },
  });
  const { errors } = form.formState;
  const validationMessage = firstErrorMessage(errors);

  const handleValid = ({ newPassword }: { newPassword: string }) => {
    changePassword.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: (session) => {
          toast({
            title: t('changePassword.successTitle'),
            description: t('changePassword.successDescription'),
          });
          if (session.requireMfaEnrolment && onEnrolmentRequired) {
            onEnrolmentRequired();
            return;
          }
          setSession(queryClient, session);
          navigate(afterPasswordChangePathFor(session.user.role));
        },
        onError: (error) => {
          toast({
            variant: 'destructive',
            title: t('changePassword.failedTitle'),
            description: getErrorMessage(error, t('changePassword.failedDescription')),
          });
        },
      },
    );
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        data-testid="change-password-dialog"
        onInteractOutside={(event) => event.preventDefault()}
      >
        <DialogHeader>
          <DialogTitle>{t('changePassword.title')}</DialogTitle>
          <DialogDescription>{t('changePassword.description')}</DialogDescription>
        </DialogHeader>
        <form
          noValidate
          className="grid gap-4"
          onSubmit={(event) => void form.handleSubmit(handleValid)(event)}
        >
          <Field id="new-password" label={t('changePassword.newPassword')}>
            <Input
              id="new-password"
              type="password"
              autoComplete="new-password"
              aria-invalid={errors.newPassword ? true : undefined}
              {...form.register('newPassword')}
            />
          </Field>
          <Field id="confirm-password" label={t('changePassword.confirmPassword')}>
            <Input
              id="confirm-password"
              type="password"
              autoComplete="new-password"
              aria-invalid={errors.confirmPassword ? true : undefined}
              {...form.register('confirmPassword')}
            />
          </Field>
          {validationMessage && (
            <p role="alert" className="text-sm font-medium text-destructive">
              {validationMessage}
            </p>
          )}
          <DialogFooter>
            <Button type="submit" disabled={changePassword.isPending}>
              {changePassword.isPending && <Spinner />}
              {t('changePassword.submit')}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
