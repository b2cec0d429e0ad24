import { useState } from 'react';

import type { User } from '@boomgate/contracts/users';

import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { LoadingScreen } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api-client';
import { useTranslation } from '@/lib/i18n';

import { useDeactivateUser } from '../api/deactivate-user';
import { useUsers } from '../api/get-users';
import { useReactivateUser } from '../api/reactivate-user';

import { CreateUserDialog } from './create-user-dialog';
import { EditUserDialog } from './edit-user-dialog';
import { UsersTable } from './users-table';

/** The users of the signed-in user's organization, with create, edit and (de)activation. */
export function UserManagement({ currentUser }: { currentUser: User }) {
  const { t } = useTranslation('users');
  const users = useUsers();
  const deactivateUser = useDeactivateUser();
  const reactivateUser = useReactivateUser();
  const [editing, setEditing] = useState<User | null>(null);

  const handleDeactivate = (user: User) => {
    deactivateUser.mutate(user.id, {
      onSuccess: () =>
        toast({ title: t('toast.deactivated'), description: t('toast.deactivatedDetail') }),
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: t('toast.deactivateFailed'),
          description: getErrorMessage(error, t('toast.deactivateFailedDetail')),
        }),
    });
  };

  const handleReactivate = (user: User) => {
    reactivateUser.mutate(user.id, {
      onSuccess: () =>
        toast({ title: t('toast.reactivated'), description: t('toast.reactivatedDetail') }),
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: t('toast.reactivateFailed'),
          description: getErrorMessage(error, t('toast.reactivateFailedDetail')),
        }),
    });
  };

  const pendingUserId = deactivateUser.isPending
    ? deactivateUser.variables
    : reactivateUser.isPending
      ? reactivateUser.variables
      : undefined;

  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-6">
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={<CreateUserDialog actorRole={currentUser.role} />}
      />

      <Card>
        <CardHeader>
          <CardTitle>{t('users')}</CardTitle>
          {users.data && (
            <CardDescription>{t('count', { count: users.data.length })}</CardDescription>
          )}
        </CardHeader>
        <CardContent>
          {users.isPending ? (
            <LoadingScreen label={t('loading')} />
          ) : users.isError ? (
            <p role="alert" className="text-sm text-destructive">
              {getErrorMessage(users.error, t('loadFailed'))}
            </p>
          ) : (
            <UsersTable
              users={users.data}
              currentUserId={currentUser.id}
              pendingUserId={pendingUserId}
              onEdit={setEditing}
              onDeactivate={handleDeactivate}
              onReactivate={handleReactivate}
            />
          )}
        </CardContent>
      </Card>

      {editing && (
        <EditUserDialog
          key={editing.id}
          user={editing}
          actorRole={currentUser.role}
          onClose={() => setEditing(null)}
        />
      )}
    </div>
  );
}
