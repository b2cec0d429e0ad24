import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { type FieldErrors, useForm } from 'react-hook-form';
import { Link, useLocation } from 'wouter';

import {
  type AuthResponse,
  AuthResponseSchema,
  type LoginForm,
  LoginFormSchema,
  type MfaMethod,
  isMfaChallenge,
} from '@boomgate/contracts/auth';
import { landingPathFor } from '@boomgate/contracts/role-paths';

import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage, request } from '@/lib/api-client';
import { firstErrorMessage } from '@/lib/form-errors';
import { displayName } from '@/lib/display-name';
import { useTranslation } from '@/lib/i18n';

import { setSession } from '../api/get-session';
import { useLogin } from '../api/login';

import { AuthLayout } from './auth-layout';

// Only needed after a sign-in that demands a new password: its code (Radix Dialog) loads then.
const ChangePasswordDialog = lazy(() =>
  import('./change-password-dialog').then((module) => ({ default: module.ChangePasswordDialog })),
);

// The second step and the required enrolment (SEC-26) load only for accounts that need them.
const SecondStepForm = lazy(() =>
  import('./second-step-form').then((module) => ({ default: module.SecondStepForm })),
);
const MfaEnrolmentDialog = lazy(() =>
  import('./mfa-enrolment-dialog').then((module) => ({ default: module.MfaEnrolmentDialog })),
);

export function LoginScreen() {
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const login = useLogin();
  const { t } = useTranslation('auth');
  const [hasFailed, setHasFailed] = useState(false);
  // Set when the server demands a new password: the one just typed is the current password.
  const [forcedChange, setForcedChange] = useState<{ currentPassword: string } | null>(null);
  // Set when the password was right and a second factor is owed (the login body's methods).
  const [secondStep, setSecondStep] = useState<{ methods: MfaMethod[]; password: string } | null>(
    null,
  );
  // Set when the organization requires a second factor this account has not set up.
  const [mustEnrol, setMustEnrol] = useState(false);

  const form = useForm<LoginForm>({
    resolver: zodResolver(LoginFormSchema),
    defaultValues: { username: '', password: '' },
  });
  const { errors } = form.formState;

  /** The spec's rules after a successful sign-in: forced change first, then the landing page. */
  const finishSignIn = (session: AuthResponse, password: string) => {
    if (session.requirePasswordChange) {
      toast({
        title: t('login.passwordChangeRequired'),
        description: t('login.passwordChangeRequiredDescription'),
      });
      setForcedChange({ currentPassword: password });
      return;
    }
    if (session.requireMfaEnrolment) {
      setMustEnrol(true);
      return;
    }
    setSession(queryClient, session);
    toast({
      title: t('login.successTitle'),
      description: t('login.successDescription', { name: displayName(session.user) }),
    });
    navigate(landingPathFor(session.user.role));
  };

  const handleValid = (values: LoginForm) => {
    setHasFailed(false);
    login.mutate(values, {
      onSuccess: (result) => {
        if (isMfaChallenge(result)) {
          setSecondStep({ methods: result.methods, password: values.password });
          return;
        }
        finishSignIn(result, values.password);
      },
      onError: (error) => {
        setHasFailed(true);
        toast({
          variant: 'destructive',
          title: t('login.failedTitle'),
          description: getErrorMessage(error, t('login.invalidCredentials')),
        });
      },
    });
  };

  const handleEnrolled = () => {
    setMustEnrol(false);
    request('GET', '/api/auth/me', { schema: AuthResponseSchema }).then(
      (session) => finishSignIn(session, ''),
      (error: unknown) => {
        toast({
          variant: 'destructive',
          title: t('login.failedTitle'),
          description: getErrorMessage(error, t('login.signInAgain')),
        });
      },
    );
  };

  if (secondStep) {
    return (
      <AuthLayout title={t('login.secondStepTitle')} description={t('login.secondStepDescription')}>
        <Suspense fallback={<Spinner />}>
          <SecondStepForm
            methods={secondStep.methods}
            onSignedIn={(session) => {
              const { password } = secondStep;
              setSecondStep(null);
              finishSignIn(session, password);
            }}
            onCancel={() => setSecondStep(null)}
          />
        </Suspense>
        {forcedChange && (
          <Suspense fallback={null}>
            <ChangePasswordDialog
              open
              currentPassword={forcedChange.currentPassword}
              onOpenChange={(isOpen) => {
                if (!isOpen) setForcedChange(null);
              }}
            />
          </Suspense>
        )}
      </AuthLayout>
    );
  }

  const handleInvalid = (fieldErrors: FieldErrors<LoginForm>) => {
    toast({
      variant: 'destructive',
      title: t('validationError'),
      description: firstErrorMessage(fieldErrors) ?? t('login.enterBoth'),
    });
  };

  return (
    <AuthLayout title={t('login.title')} description={t('login.description')}>
      <form
        noValidate
        className="grid gap-4"
        aria-label={t('login.formLabel')}
        onSubmit={(event) => void form.handleSubmit(handleValid, handleInvalid)(event)}
      >
        <Field id="username" label={t('login.username')}>
          <Input
            id="username"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            aria-invalid={errors.username ? true : undefined}
            {...form.register('username')}
          />
        </Field>
        <Field id="password" label={t('login.password')}>
          <Input
            id="password"
            type="password"
            autoComplete="current-password"
            aria-invalid={errors.password ? true : undefined}
            {...form.register('password')}
          />
        </Field>

        {hasFailed && (
          <p role="alert" className="text-sm font-medium text-destructive">
            {t('login.failed')}
          </p>
        )}

        <Button type="submit" className="w-full" disabled={login.isPending}>
          {login.isPending && <Spinner />}
          {t('login.submit')}
        </Button>

        <p className="text-center text-sm text-muted-foreground">
          {t('login.noAccount')}{' '}
          <Link
            href={paths.register}
            className="font-medium text-foreground underline underline-offset-4"
          >
            {t('login.createAccount')}
          </Link>
        </p>
      </form>

      {forcedChange && (
        <Suspense fallback={null}>
          <ChangePasswordDialog
            open
            currentPassword={forcedChange.currentPassword}
            onOpenChange={(isOpen) => {
              if (!isOpen) setForcedChange(null);
            }}
            onEnrolmentRequired={() => {
              setForcedChange(null);
              setMustEnrol(true);
            }}
          />
        </Suspense>
      )}
      {mustEnrol && (
        <Suspense fallback={null}>
          <MfaEnrolmentDialog onEnrolled={handleEnrolled} onCancel={() => setMustEnrol(false)} />
        </Suspense>
      )}
    </AuthLayout>
  );
}
