import { ROLES, type Role } from '@boomgate/contracts/roles';

import type { TFunction } from '@/lib/i18n';

/**
 * Roles offered in the user forms. Super Admin is offered only to a signed-in super_admin
 * (spec §6); `keep` shows a role the user already has so the form can display it.
 */
export function assignableRoles(t: TFunction<'users'>, actorRole: Role, keep?: Role) {
  return ROLES.filter(
    (role) => role !== 'super_admin' || actorRole === 'super_admin' || role === keep,
  ).map((role) => ({
    value: role,
    label: t(`roles.${role}`),
    isDisabled: role === 'super_admin' && actorRole !== 'super_admin',
  }));
}
