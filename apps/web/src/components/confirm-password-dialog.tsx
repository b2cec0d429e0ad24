import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';

import { type ReauthBody, ReauthBodySchema } from '@boomgate/contracts/auth';

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
import { getErrorMessage, isHttpError, reauthenticate } from '@/lib/api-client';
import { useTranslation } from '@/lib/i18n';
import { cancelReauthentication, completeReauthentication } from '@/lib/reauth';

const PASSWORD_ID = 'confirm-password';

/**
 * SEC-25: shown while a request waits for the password (401 REAUTH_REQUIRED, see lib/reauth.ts).
 * Confirm sends POST /api/auth/reauth and lets the request go again; a wrong password shows the
 * server's message and keeps the dialog open; Cancel (or Escape) rejects the waiting request.
 * The dialog focuses the password field when it opens (Radix focuses the first field).
 * Loaded on first use by app/provider.tsx, so it costs nothing on the first screen.
 */
export function ConfirmPasswordDialog() {
  const { t } = useTranslation('shared');
  const form = useForm<ReauthBody>({
    resolver: zodResolver(ReauthBodySchema),
    defaultValues: { password: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const handleValid = async ({ password }: ReauthBody) => {
    try {
      await reauthenticate(password);
      completeReauthentication();
    } catch (error) {
      // Signed out meanwhile: the waiting request fails like any other 401.
      if (isHttpError(error, 401)) return cancelReauthentication(error);
      form.setError(
        'password',
        { message: getErrorMessage(error, t('reauth.failed')) },
        { shouldFocus: true },
      );
    }
  };

  return (
    <Dialog
      open
      onOpenChange={(isOpen) => {
        if (!isOpen) cancelReauthentication();
      }}
    >
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{t('reauth.title')}</DialogTitle>
          <DialogDescription>{t('reauth.description')}</DialogDescription>
        </DialogHeader>
        <form
          noValidate
          className="grid gap-4"
          onSubmit={(event) => void form.handleSubmit(handleValid)(event)}
        >
          <Field id={PASSWORD_ID} label={t('reauth.password')} error={errors.password?.message}>
            <Input
              id={PASSWORD_ID}
              type="password"
              autoComplete="current-password"
              aria-invalid={errors.password ? true : undefined}
              aria-describedby={errors.password ? `${PASSWORD_ID}-error` : undefined}
              {...form.register('password')}
            />
          </Field>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => cancelReauthentication()}>
              {t('reauth.cancel')}
            </Button>
            <Button type="submit" disabled={isSubmitting}>
              {isSubmitting && <Spinner />}
              {t('reauth.confirm')}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
