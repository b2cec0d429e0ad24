import { RoleGate } from '@/features/auth/components/role-gate';
import { useSession } from '@/features/auth/api/get-session';
import { UserManagement } from '@/features/users/components/user-management';
import { useTranslation } from '@/lib/i18n';

export default function UsersRoute() {
  // The role gate's title is the screen's own; its reason is shared by the routes.
  const { t } = useTranslation();
  const { user } = useSession();
  return (
    <RoleGate action="manageUsers" title={t('users:title')} reason={t('shared:gates.users')}>
      <UserManagement currentUser={user} />
    </RoleGate>
  );
}
