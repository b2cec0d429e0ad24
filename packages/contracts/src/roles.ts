import { z } from 'zod';

export const ROLES = ['super_admin', 'tenant_admin', 'back_office', 'security_guard'] as const;
export const RoleSchema = z.enum(ROLES);
export type Role = z.infer<typeof RoleSchema>;

/** Spec §6 display names. */
export const ROLE_LABELS: Record<Role, string> = {
  super_admin: 'Super Admin',
  tenant_admin: 'Tenant Admin',
  back_office: 'Back Office',
  security_guard: 'Security Guard',
};

export const DEFAULT_ROLE: Role = 'security_guard';

/** Spec §6: where a user lands after signing in. */
export function landingPathFor(role: Role): string {
  switch (role) {
    case 'security_guard':
      return '/auto-gate';
    case 'super_admin':
    case 'tenant_admin':
      return '/';
    case 'back_office':
      return '/incoming-feed';
  }
}

/** Spec §4: after a forced password change guards go to the gate, everyone else home. */
export function afterPasswordChangePathFor(role: Role): string {
  return role === 'security_guard' ? '/auto-gate' : '/';
}
