import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import { z } from 'zod';

import { type Role, RoleSchema } from '@boomgate/contracts/roles';
import { type UpdateUserBody, UpdateUserBodySchema, type User } from '@boomgate/contracts/users';

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
import { useSites } from '@/lib/api/sites';

import { useResetUserMfa } from '../api/reset-user-mfa';
import { useUpdateUser } from '../api/update-user';

import { assignableRoles } from './role-options';
import { UserSitesField } from './user-sites-field';

/** Spec §5: only non-empty fields are sent; a blank password keeps the current one. */
const EditUserFormSchema = z
  .object({
    fullName: z.string(),
    email: z.string(),
    role: RoleSchema,
    password: z.string(),
    siteIds: z.array(z.string()),
  })
  .transform(
    ({ fullName, email, role, password, siteIds }): z.input<typeof UpdateUserBodySchema> => ({
      fullName: fullName.trim() || undefined,
      email: email.trim() || undefined,
      role,
      password: password || undefined,
      siteIds,
    }),
  )
  .pipe(UpdateUserBodySchema);

export function EditUserDialog({
  user,
  actorRole,
  onClose,
}: {
  user: User;
  actorRole: Role;
  onClose: () => void;
}) {
  const updateUser = useUpdateUser();
  const resetMfa = useResetUserMfa();
  const form = useForm({
    resolver: zodResolver(EditUserFormSchema),
    defaultValues: {
      fullName: user.fullName ?? '',
      email: user.email ?? '',
      role: user.role,
      password: '',
      siteIds: user.siteIds ?? [],
    },
  });
  const sites = useSites();
  const { errors } = form.formState;

  const handleValid = ({ siteIds, ...rest }: UpdateUserBody) => {
    // Empty fields became undefined, and JSON leaves undefined keys out of the request. Sites are
    // sent only when changed here, so an edit never clears assignments it did not show.
    const before = user.siteIds ?? [];
    const changed =
      siteIds !== undefined &&
      (siteIds.length !== before.length || siteIds.some((id) => !before.includes(id)));
    const body = changed ? { ...rest, siteIds } : rest;
    updateUser.mutate(
      { id: user.id, body },
      {
        onSuccess: () => {
          toast({ title: 'User Updated', description: 'User has been updated successfully' });
          onClose();
        },
        onError: (error) => {
          toast({
            variant: 'destructive',
            title: 'Update Failed',
            description: getErrorMessage(error, 'Failed to update user'),
          });
        },
      },
    );
  };

  return (
    <Dialog
      open
      onOpenChange={(isOpen) => {
        if (!isOpen) onClose();
      }}
    >
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Edit User</DialogTitle>
          <DialogDescription>
            Update the details of{' '}
            <span className="font-medium text-foreground">{user.username}</span>.
          </DialogDescription>
        </DialogHeader>
        <form
          noValidate
          className="grid gap-4"
          onSubmit={(event) => void form.handleSubmit(handleValid)(event)}
        >
          <Field id="edit-full-name" label="Full Name" error={errors.fullName?.message}>
            <Input
              id="edit-full-name"
              autoComplete="off"
              aria-invalid={errors.fullName ? true : undefined}
              {...form.register('fullName')}
            />
          </Field>
          <Field id="edit-email" label="Email" error={errors.email?.message}>
            <Input
              id="edit-email"
              type="email"
              autoComplete="off"
              aria-invalid={errors.email ? true : undefined}
              {...form.register('email')}
            />
          </Field>
          <Field id="edit-role" label="Role" error={errors.role?.message}>
            <Controller
              control={form.control}
              name="role"
              render={({ field }) => (
                <Select value={field.value} onValueChange={field.onChange}>
                  <SelectTrigger id="edit-role" onBlur={field.onBlur}>
                    <SelectValue />
                  </SelectTrigger>
                  <SelectContent>
                    {assignableRoles(actorRole, user.role).map((option) => (
                      <SelectItem
                        key={option.value}
                        value={option.value}
                        disabled={option.isDisabled}
                      >
                        {option.label}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
              )}
            />
          </Field>
          <Controller
            control={form.control}
            name="siteIds"
            render={({ field }) => (
              <UserSitesField
                sites={sites.data ?? []}
                value={field.value}
                onChange={field.onChange}
              />
            )}
          />
          <Field id="edit-password" label="New Password" error={errors.password?.message}>
            <Input
              id="edit-password"
              type="password"
              autoComplete="new-password"
              placeholder="Leave blank to keep current password"
              aria-invalid={errors.password ? true : undefined}
              {...form.register('password')}
            />
          </Field>
          <DialogFooter>
            <Button
              type="button"
              variant="ghost"
              className="sm:mr-auto"
              disabled={resetMfa.isPending}
              onClick={() =>
                resetMfa.mutate(user.id, {
                  onSuccess: () =>
                    toast({
                      title: 'Two-Step Verification Reset',
                      description:
                        'The user signs in with the password only, or sets a new one up.',
                    }),
                  onError: (error) =>
                    toast({
                      variant: 'destructive',
                      title: 'Reset Failed',
                      description: getErrorMessage(error, 'Failed to reset two-step verification'),
                    }),
                })
              }
            >
              {resetMfa.isPending && <Spinner />}
              Reset Two-Step Verification
            </Button>
            <Button type="button" variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={updateUser.isPending}>
              {updateUser.isPending && <Spinner />}
              Save Changes
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
