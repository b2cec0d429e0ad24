import type { Role } from '@boomgate/contracts/roles';

import { Badge } from '@/components/ui/badge';
import { useTranslation } from '@/lib/i18n';

const roleVariant: Record<Role, 'default' | 'secondary' | 'outline'> = {
  super_admin: 'default',
  tenant_admin: 'default',
  back_office: 'secondary',
  security_guard: 'outline',
};

export function RoleBadge({ role }: { role: Role }) {
  const { t } = useTranslation('users');
  return <Badge variant={roleVariant[role]}>{t(`roles.${role}`)}</Badge>;
}

export function StatusBadge({ isActive }: { isActive: boolean }) {
  const { t } = useTranslation('users');
  return isActive ? (
    <Badge variant="success">{t('status.active')}</Badge>
  ) : (
    <Badge variant="secondary">{t('status.inactive')}</Badge>
  );
}
