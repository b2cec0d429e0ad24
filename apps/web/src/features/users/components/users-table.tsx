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
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>Username</TableHead>
          <TableHead>Full Name</TableHead>
          <TableHead>Role</TableHead>
          <TableHead>Status</TableHead>
          <TableHead className="text-right">Actions</TableHead>
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
                {isSelf && <span className="ml-2 text-xs text-muted-foreground">(you)</span>}
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
                    aria-label={`Edit ${user.username}`}
                    onClick={() => onEdit(user)}
                  >
                    <PencilIcon aria-hidden />
                    Edit
                  </Button>
                  {!isSelf &&
                    (user.isActive ? (
                      <Button
                        variant="outline"
                        size="sm"
                        className="text-destructive hover:text-destructive"
                        aria-label={`Deactivate ${user.username}`}
                        disabled={isPending}
                        onClick={() => onDeactivate(user)}
                      >
                        <UserXIcon aria-hidden />
                        Deactivate
                      </Button>
                    ) : (
                      <Button
                        variant="outline"
                        size="sm"
                        aria-label={`Reactivate ${user.username}`}
                        disabled={isPending}
                        onClick={() => onReactivate(user)}
                      >
                        <UserCheckIcon aria-hidden />
                        Reactivate
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
