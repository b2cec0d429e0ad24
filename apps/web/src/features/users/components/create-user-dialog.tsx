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
        toast({ title: 'User Created', description: 'New user has been created successfully' });
        handleOpenChange(false);
      },
      onError: (error) => {
        toast({
          variant: 'destructive',
          title: 'Creation Failed',
          description: getErrorMessage(error, 'Failed to create user'),
        });
      },
    });
  };

  return (
    <Dialog open={open} onOpenChange={handleOpenChange}>
      <DialogTrigger asChild>
        <Button>
          <UserPlusIcon aria-hidden />
          Create New User
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Create New User</DialogTitle>
          <DialogDescription>
            Add a user to your organization and choose their role.
          </DialogDescription>
        </DialogHeader>
        <form
          noValidate
          className="grid gap-4"
          onSubmit={(event) => void form.handleSubmit(handleValid)(event)}
        >
          <Field id="create-username" label="Username" error={errors.username?.message}>
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
          <Field id="create-password" label="Password" error={errors.password?.message}>
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
            label="Full Name (optional)"
            error={errors.fullName?.message}
          >
            <Input
              id="create-full-name"
              autoComplete="off"
              aria-invalid={errors.fullName ? true : undefined}
              {...form.register('fullName')}
            />
          </Field>
          <Field id="create-email" label="Email (optional)" error={errors.email?.message}>
            <Input
              id="create-email"
              type="email"
              autoComplete="off"
              aria-invalid={errors.email ? true : undefined}
              {...form.register('email')}
            />
          </Field>
          <Field id="create-role" label="Role" error={errors.role?.message}>
            <Controller
              control={form.control}
              name="role"
              render={({ field }) => (
                <Select value={field.value} onValueChange={field.onChange}>
                  <SelectTrigger id="create-role" onBlur={field.onBlur}>
                    <SelectValue />
                  </SelectTrigger>
                  <SelectContent>
                    {assignableRoles(actorRole).map((option) => (
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
              Cancel
            </Button>
            <Button type="submit" disabled={createUser.isPending}>
              {createUser.isPending && <Spinner />}
              Create User
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
