import { useState } from 'react';

import type { User } from '@boomgate/contracts/users';

import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { LoadingScreen } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api-client';

import { useDeactivateUser } from '../api/deactivate-user';
import { useUsers } from '../api/get-users';
import { useReactivateUser } from '../api/reactivate-user';

import { CreateUserDialog } from './create-user-dialog';
import { EditUserDialog } from './edit-user-dialog';
import { UsersTable } from './users-table';

/** The users of the signed-in user's organization, with create, edit and (de)activation. */
export function UserManagement({ currentUser }: { currentUser: User }) {
  const users = useUsers();
  const deactivateUser = useDeactivateUser();
  const reactivateUser = useReactivateUser();
  const [editing, setEditing] = useState<User | null>(null);

  const handleDeactivate = (user: User) => {
    deactivateUser.mutate(user.id, {
      onSuccess: () =>
        toast({ title: 'User Deactivated', description: 'User has been deactivated' }),
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: 'Deactivation Failed',
          description: getErrorMessage(error, 'Failed to deactivate user'),
        }),
    });
  };

  const handleReactivate = (user: User) => {
    reactivateUser.mutate(user.id, {
      onSuccess: () =>
        toast({ title: 'User Reactivated', description: 'User has been reactivated' }),
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: 'Reactivation Failed',
          description: getErrorMessage(error, 'Failed to reactivate user'),
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
        title="User Management"
        description="Manage who can use Boomgate in your organization and what they can do."
        actions={<CreateUserDialog actorRole={currentUser.role} />}
      />

      <Card>
        <CardHeader>
          <CardTitle>Users</CardTitle>
          {users.data && (
            <CardDescription>
              {users.data.length} registered user(s) in organization
            </CardDescription>
          )}
        </CardHeader>
        <CardContent>
          {users.isPending ? (
            <LoadingScreen label="Loading users..." />
          ) : users.isError ? (
            <p role="alert" className="text-sm text-destructive">
              {getErrorMessage(users.error, 'Failed to load users')}
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
