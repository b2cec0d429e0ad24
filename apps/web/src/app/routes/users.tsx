import { RoleGate } from '@/features/auth/components/role-gate';
import { useSession } from '@/features/auth/api/get-session';
import { UserManagement } from '@/features/users/components/user-management';

export default function UsersRoute() {
  const { user } = useSession();
  return (
    <RoleGate
      action="manageUsers"
      title="User Management"
      reason="Only tenant and super administrators manage users."
    >
      <UserManagement currentUser={user} />
    </RoleGate>
  );
}
