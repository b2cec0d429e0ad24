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
import { getErrorMessage } from '@/lib/api-client';
import { firstErrorMessage } from '@/lib/form-errors';
import { displayName } from '@/lib/display-name';

import { setSession } from '../api/get-session';
import { useRegister } from '../api/register';

import { AuthLayout } from './auth-layout';

const showValidationError = (description: string) =>
  toast({ variant: 'destructive', title: 'Validation Error', description });

/** Creates an organization and its first (admin) account, then starts onboarding. */
export function RegisterScreen() {
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const register = useRegister();
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
      showValidationError(body.error.issues[0]?.message ?? 'Please fill in all required fields');
      return;
    }

    setHasFailed(false);
    register.mutate(body.data, {
      onSuccess: (session) => {
        setSession(queryClient, session);
        toast({
          title: 'Registration Successful',
          description: `Welcome, ${displayName(session.user)}! Let's get started with onboarding.`,
        });
        navigate(paths.onboarding);
      },
      onError: (error) => {
        setHasFailed(true);
        toast({
          variant: 'destructive',
          title: 'Registration Failed',
          description: getErrorMessage(error, 'Failed to create account'),
        });
      },
    });
  };

  const handleInvalid = (fieldErrors: FieldErrors<RegisterForm>) => {
    showValidationError(firstErrorMessage(fieldErrors) ?? 'Please fill in all required fields');
  };

  const invalid = (name: keyof RegisterForm) => (errors[name] ? true : undefined);

  return (
    <AuthLayout
      title="Create Account"
      description="Register your organization and its first administrator"
    >
      <form
        noValidate
        className="grid gap-4"
        aria-label="Create account"
        onSubmit={(event) => void form.handleSubmit(handleValid, handleInvalid)(event)}
      >
        <Field id="organizationName" label="Organization Name">
          <Input
            id="organizationName"
            autoComplete="organization"
            aria-invalid={invalid('organizationName')}
            {...form.register('organizationName')}
          />
        </Field>
        <Field id="fullName" label="Full Name">
          <Input
            id="fullName"
            autoComplete="name"
            aria-invalid={invalid('fullName')}
            {...form.register('fullName')}
          />
        </Field>
        <Field id="email" label="Email (optional)">
          <Input
            id="email"
            type="email"
            autoComplete="email"
            aria-invalid={invalid('email')}
            {...form.register('email')}
          />
        </Field>
        <Field id="username" label="Username">
          <Input
            id="username"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            aria-invalid={invalid('username')}
            {...form.register('username')}
          />
        </Field>
        <Field id="password" label="Password">
          <Input
            id="password"
            type="password"
            autoComplete="new-password"
            aria-invalid={invalid('password')}
            {...form.register('password')}
          />
        </Field>
        <Field id="confirmPassword" label="Confirm Password">
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
            Registration failed. Please check your information.
          </p>
        )}

        <Button type="submit" className="w-full" disabled={register.isPending}>
          {register.isPending && <Spinner />}
          Create Account
        </Button>

        <p className="text-center text-sm text-muted-foreground">
          Already have an account?{' '}
          <Link
            href={paths.login}
            className="font-medium text-foreground underline underline-offset-4"
          >
            Sign In
          </Link>
        </p>
      </form>
    </AuthLayout>
  );
}
