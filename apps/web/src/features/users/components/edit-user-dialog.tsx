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
import { Trans, useTranslation } from '@/lib/i18n';
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
  const { t } = useTranslation('users');
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
          toast({ title: t('toast.updated'), description: t('toast.updatedDetail') });
          onClose();
        },
        onError: (error) => {
          toast({
            variant: 'destructive',
            title: t('toast.updateFailed'),
            description: getErrorMessage(error, t('toast.updateFailedDetail')),
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
          <DialogTitle>{t('edit.title')}</DialogTitle>
          <DialogDescription>
            <Trans
              t={t}
              i18nKey="edit.description"
              values={{ username: user.username }}
              components={{ user: <span className="font-medium text-foreground" /> }}
            />
          </DialogDescription>
        </DialogHeader>
        <form
          noValidate
          className="grid gap-4"
          onSubmit={(event) => void form.handleSubmit(handleValid)(event)}
        >
          <Field id="edit-full-name" label={t('edit.fullName')} error={errors.fullName?.message}>
            <Input
              id="edit-full-name"
              autoComplete="off"
              aria-invalid={errors.fullName ? true : undefined}
              {...form.register('fullName')}
            />
          </Field>
          <Field id="edit-email" label={t('edit.email')} error={errors.email?.message}>
            <Input
              id="edit-email"
              type="email"
              autoComplete="off"
              aria-invalid={errors.email ? true : undefined}
              {...form.register('email')}
            />
          </Field>
          <Field id="edit-role" label={t('edit.role')} error={errors.role?.message}>
            <Controller
              control={form.control}
              name="role"
              render={({ field }) => (
                <Select value={field.value} onValueChange={field.onChange}>
                  <SelectTrigger id="edit-role" onBlur={field.onBlur}>
                    <SelectValue />
                  </SelectTrigger>
                  <SelectContent>
                    {assignableRoles(t, actorRole, user.role).map((option) => (
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
          <Field id="edit-password" label={t('edit.newPassword')} error={errors.password?.message}>
            <Input
              id="edit-password"
              type="password"
              autoComplete="new-password"
              placeholder={t('edit.keepPassword')}
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
                      title: t('toast.mfaReset'),
                      description: t('toast.mfaResetDetail'),
                    }),
                  onError: (error) =>
                    toast({
                      variant: 'destructive',
                      title: t('toast.mfaResetFailed'),
                      description: getErrorMessage(error, t('toast.mfaResetFailedDetail')),
                    }),
                })
              }
            >
              {resetMfa.isPending && <Spinner />}
              {t('edit.resetMfa')}
            </Button>
            <Button type="button" variant="outline" onClick={onClose}>
              {t('edit.cancel')}
            </Button>
            <Button type="submit" disabled={updateUser.isPending}>
              {updateUser.isPending && <Spinner />}
              {t('edit.save')}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
