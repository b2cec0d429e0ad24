import { useSession } from '@/features/auth/api/get-session';
import { UserManagement } from '@/features/users/components/user-management';

export default function UsersRoute() {
  const { user } = useSession();
  return <UserManagement currentUser={user} />;
}
