import { zodResolver } from '@hookform/resolvers/zod';
import { UserPlusIcon } from 'lucide-react';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';

import { DEFAULT_ROLE, type Role } from '@boomgate/contracts/roles';
import { type CreateUserBody, CreateUserBodySchema } from '@boomgate/contracts/users';

import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api-client';
import { useTranslation } from '@/lib/i18n';

import { useCreateUser } from '../api/create-user';

import { assignableRoles } from './role-options';

const emptyForm = {
  username: '',
  password: '',
  fullName: '',
  email: '',
  role: DEFAULT_ROLE,
  // Issue 16: site assignments are made on the user's edit (none: a guard works at the default site).
  siteIds: undefined as string[] | undefined,
};

export function CreateUserDialog({ actorRole }: { actorRole: Role }) {
  const { t } = useTranslation('users');
  const [open, setOpen] = useState(false);
  const createUser = useCreateUser();
  const form = useForm({ resolver: zodResolver(CreateUserBodySchema), defaultValues: emptyForm });
  const { errors } = form.formState;

  const handleOpenChange = (isOpen: boolean) => {
    setOpen(isOpen);
    if (!isOpen) form.reset(emptyForm);
  };

  const handleValid = (body: CreateUserBody) => {
    createUser.mutate(body, {
      onSuccess: () => {
        toast({ title: t('toast.created'), description: t('toast.createdDetail') });
        handleOpenChange(false);
      },
      onError: (error) => {
        toast({
          variant: 'destructive',
          title: t('toast.createFailed'),
          description: getErrorMessage(error, t('toast.createFailedDetail')),
        });
      },
    });
  };

  return (
    <Dialog open={open} onOpenChange={handleOpenChange}>
      <DialogTrigger asChild>
        <Button>
          <UserPlusIcon aria-hidden />
          {t('create.open')}
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{t('create.title')}</DialogTitle>
          <DialogDescription>{t('create.description')}</DialogDescription>
        </DialogHeader>
        <form
          noValidate
          className="grid gap-4"
          onSubmit={(event) => void form.handleSubmit(handleValid)(event)}
        >
          <Field id="create-username" label={t('create.username')} error={errors.username?.message}>
            <Input
              id="create-username"
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              aria-invalid={errors.username ? true : undefined}
              aria-describedby={errors.username ? 'create-username-error' : undefined}
              {...form.register('username')}
            />
          </Field>
          <Field id="create-password" label={t('create.password')} error={errors.password?.message}>
            <Input
              id="create-password"
              type="password"
              autoComplete="new-password"
              aria-invalid={errors.password ? true : undefined}
              aria-describedby={errors.password ? 'create-password-error' : undefined}
              {...form.register('password')}
            />
          </Field>
          <Field
            id="create-full-name"
            label={t('create.fullName')}
            error={errors.fullName?.message}
          >
            <Input
              id="create-full-name"
              autoComplete="off"
              aria-invalid={errors.fullName ? true : undefined}
              {...form.register('fullName')}
            />
          </Field>
          <Field id="create-email" label={t('create.email')} error={errors.email?.message}>
            <Input
              id="create-email"
              type="email"
              autoComplete="off"
              aria-invalid={errors.email ? true : undefined}
              {...form.register('email')}
            />
          </Field>
          <Field id="create-role" label={t('create.role')} error={errors.role?.message}>
            <Controller
              control={form.control}
              name="role"
              render={({ field }) => (
                <Select value={field.value} onValueChange={field.onChange}>
                  <SelectTrigger id="create-role" onBlur={field.onBlur}>
                    <SelectValue />
                  </SelectTrigger>
                  <SelectContent>
                    {assignableRoles(t, actorRole).map((option) => (
                      <SelectItem key={option.value} value={option.value}>
                        {option.label}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
              )}
            />
          </Field>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => handleOpenChange(false)}>
              {t('create.cancel')}
            </Button>
            <Button type="submit" disabled={createUser.isPending}>
              {createUser.isPending && <Spinner />}
              {t('create.submit')}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
