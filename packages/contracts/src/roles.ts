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

export { afterPasswordChangePathFor, landingPathFor } from './role-paths';
