import { ROLE_LABELS, type Role } from '@boomgate/contracts/roles';

import { Badge } from '@/components/ui/badge';

const roleVariant: Record<Role, 'default' | 'secondary' | 'outline'> = {
  super_admin: 'default',
  tenant_admin: 'default',
  back_office: 'secondary',
  security_guard: 'outline',
};

export function RoleBadge({ role }: { role: Role }) {
  return <Badge variant={roleVariant[role]}>{ROLE_LABELS[role]}</Badge>;
}

export function StatusBadge({ isActive }: { isActive: boolean }) {
  return isActive ? (
    <Badge variant="success">Active</Badge>
  ) : (
    <Badge variant="secondary">Inactive</Badge>
  );
}
