import type { ReactNode } from 'react';

import { type RoleAction, roleMay } from '@boomgate/contracts/roles';

import { Alert, AlertDescription } from '@/components/ui/alert';
import { PageHeader } from '@/components/ui/page-header';

import { useSession } from '../api/get-session';

/**
 * A screen whose every action needs `action` (ACTION_ROLES, as the server enforces it): other
 * roles see its title and why they cannot use it, never buttons that would answer 403. The
 * sidebar already hides these screens; this covers the address typed or bookmarked.
 */
export function RoleGate({
  action,
  title,
  reason,
  children,
}: {
  action: RoleAction;
  title: string;
  reason: string;
  children: ReactNode;
}) {
  const { user } = useSession();
  if (roleMay(user.role, action)) return children;
  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-6">
      <PageHeader title={title} />
      <Alert variant="destructive">
        <AlertDescription>{reason}</AlertDescription>
      </Alert>
    </div>
  );
}
