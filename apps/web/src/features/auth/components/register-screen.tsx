import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { type FieldErrors, useForm } from 'react-hook-form';
import { Link, useLocation } from 'wouter';

import {
  type RegisterForm,
  RegisterBodySchema,
  RegisterFormSchema,
} from '@boomgate/contracts/auth';

import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { toast } from '@/hooks/use-toast';
import { contractMessage, i18next, useTranslation } from '@/lib/i18n';
import { getErrorMessage } from '@/lib/api-client';
import { firstErrorMessage } from '@/lib/form-errors';
import { displayName } from '@/lib/display-name';

import { setSession } from '../api/get-session';
import { useRegister } from '../api/register';

import { AuthLayout } from './auth-layout';

const showValidationError = (description: string) =>
  toast({ variant: 'destructive', title: i18next.t('auth:validationError'), description });

/** Creates an organization and its first (admin) account, then starts onboarding. */
export function RegisterScreen() {
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const register = useRegister();
  const { t } = useTranslation('auth');
  const [hasFailed, setHasFailed] = useState(false);

  const form = useForm({
    resolver: zodResolver(RegisterFormSchema),
    defaultValues: {
      organizationName: '',
      fullName: '',
      email: '',
      username: '',
      password: '',
      confirmPassword: '',
    },
  });
  const { errors } = form.formState;

  const handleValid = ({ confirmPassword: _confirmPassword, ...values }: RegisterForm) => {
    // The form checks presence, length and match; the contract adds the username and email rules.
    const body = RegisterBodySchema.safeParse(values);
    if (!body.success) {
      showValidationError(
        contractMessage(body.error.issues[0]?.message) ?? t('register.fillRequired'),
      );
      return;
    }

    setHasFailed(false);
    register.mutate(body.data, {
      onSuccess: (session) => {
        setSession(queryClient, session);
        toast({
          title: t('register.successTitle'),
          description: t('register.successDescription', { name: displayName(session.user) }),
        });
        navigate(paths.onboarding);
      },
      onError: (error) => {
        setHasFailed(true);
        toast({
          variant: 'destructive',
          title: t('register.failedTitle'),
          description: getErrorMessage(error, t('register.failedDescription')),
        });
      },
    });
  };

  const handleInvalid = (fieldErrors: FieldErrors<RegisterForm>) => {
    showValidationError(firstErrorMessage(fieldErrors) ?? t('register.fillRequired'));
  };

  const invalid = (name: keyof RegisterForm) => (errors[name] ? true : undefined);

  return (
    <AuthLayout title={t('register.title')} description={t('register.description')}>
      <form
        noValidate
        className="grid gap-4"
        aria-label={t('register.formLabel')}
        onSubmit={(event) => void form.handleSubmit(handleValid, handleInvalid)(event)}
      >
        <Field id="organizationName" label={t('register.organizationName')}>
          <Input
            id="organizationName"
            autoComplete="organization"
            aria-invalid={invalid('organizationName')}
            {...form.register('organizationName')}
          />
        </Field>
        <Field id="fullName" label={t('register.fullName')}>
          <Input
            id="fullName"
            autoComplete="name"
            aria-invalid={invalid('fullName')}
            {...form.register('fullName')}
          />
        </Field>
        <Field id="email" label={t('register.email')}>
          <Input
            id="email"
            type="email"
            autoComplete="email"
            aria-invalid={invalid('email')}
            {...form.register('email')}
          />
        </Field>
        <Field id="username" label={t('register.username')}>
          <Input
            id="username"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            aria-invalid={invalid('username')}
            {...form.register('username')}
          />
        </Field>
        <Field id="password" label={t('register.password')}>
          <Input
            id="password"
            type="password"
            autoComplete="new-password"
            aria-invalid={invalid('password')}
            {...form.register('password')}
          />
        </Field>
        <Field id="confirmPassword" label={t('register.confirmPassword')}>
          <Input
            id="confirmPassword"
            type="password"
            autoComplete="new-password"
            aria-invalid={invalid('confirmPassword')}
            {...form.register('confirmPassword')}
          />
        </Field>

        {hasFailed && (
          <p role="alert" className="text-sm font-medium text-destructive">
            {t('register.failed')}
          </p>
        )}

        <Button type="submit" className="w-full" disabled={register.isPending}>
          {register.isPending && <Spinner />}
          {t('register.submit')}
        </Button>

        <p className="text-center text-sm text-muted-foreground">
          {t('register.haveAccount')}{' '}
          <Link
            href={paths.login}
            className="font-medium text-foreground underline underline-offset-4"
          >
            {t('register.signIn')}
          </Link>
        </p>
      </form>
    </AuthLayout>
  );
}
