import { PencilIcon, UserCheckIcon, UserXIcon } from 'lucide-react';

import type { User } from '@boomgate/contracts/users';

import { Button } from '@/components/ui/button';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { useTranslation } from '@/lib/i18n';

import { RoleBadge, StatusBadge } from './user-badges';

export function UsersTable({
  users,
  currentUserId,
  pendingUserId,
  onEdit,
  onDeactivate,
  onReactivate,
}: {
  users: User[];
  currentUserId: string;
  /** The user whose activation change is in flight, to disable its button. */
  pendingUserId: string | undefined;
  onEdit: (user: User) => void;
  onDeactivate: (user: User) => void;
  onReactivate: (user: User) => void;
}) {
  const { t } = useTranslation('users');
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>{t('table.username')}</TableHead>
          <TableHead>{t('table.fullName')}</TableHead>
          <TableHead>{t('table.role')}</TableHead>
          <TableHead>{t('table.status')}</TableHead>
          <TableHead className="text-right">{t('table.actions')}</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {users.map((user) => {
          // A user cannot deactivate or reactivate themselves (spec §4): those buttons are hidden.
          const isSelf = user.id === currentUserId;
          const isPending = pendingUserId === user.id;
          return (
            <TableRow key={user.id} data-testid={`user-row-${user.username}`}>
              <TableCell className="font-medium">
                {user.username}
                {isSelf && (
                  <span className="ml-2 text-xs text-muted-foreground">{t('table.you')}</span>
                )}
              </TableCell>
              <TableCell>
                {user.fullName || <span className="text-muted-foreground">—</span>}
              </TableCell>
              <TableCell>
                <RoleBadge role={user.role} />
              </TableCell>
              <TableCell>
                <StatusBadge isActive={user.isActive} />
              </TableCell>
              <TableCell>
                <div className="flex justify-end gap-2">
                  <Button
                    variant="outline"
                    size="sm"
                    aria-label={t('table.editUser', { username: user.username })}
                    onClick={() => onEdit(user)}
                  >
                    <PencilIcon aria-hidden />
                    {t('table.edit')}
                  </Button>
                  {!isSelf &&
                    (user.isActive ? (
                      <Button
                        variant="outline"
                        size="sm"
                        className="text-destructive hover:text-destructive"
                        aria-label={t('table.deactivateUser', { username: user.username })}
                        disabled={isPending}
                        onClick={() => onDeactivate(user)}
                      >
                        <UserXIcon aria-hidden />
                        {t('table.deactivate')}
                      </Button>
                    ) : (
                      <Button
                        variant="outline"
                        size="sm"
                        aria-label={t('table.reactivateUser', { username: user.username })}
                        disabled={isPending}
                        onClick={() => onReactivate(user)}
                      >
                        <UserCheckIcon aria-hidden />
                        {t('table.reactivate')}
                      </Button>
                    ))}
                </div>
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}
