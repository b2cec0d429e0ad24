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

/**
 * Who may use each kind of action, as the server's routes declare it (`rolesAccess`). The web
 * shows a screen's actions only to these roles, so a guard never sees a button that answers 403.
 * apps/server/src/security/action-roles.test.ts checks each against the authorization matrix.
 */
export const ACTION_ROLES = {
  /** User Management: list, create, edit, deactivate and reactivate users. */
  manageUsers: ['super_admin', 'tenant_admin'],
  /** Safety videos and induction assignments (adding, assigning, removing). */
  manageInductions: ['super_admin', 'tenant_admin', 'back_office'],
  /** Onboarding drivers: company (bulk and individual), self onboarding, the driver list. */
  onboardDrivers: ['super_admin', 'tenant_admin', 'back_office'],
  /** The integration secret, callback URL, deliveries and ANPR cameras. */
  manageIntegrations: ['super_admin', 'tenant_admin'],
  viewSettings: ['super_admin', 'tenant_admin', 'back_office'],
  editSettings: ['super_admin', 'tenant_admin'],
  /** Reports and exports of entries (issue 23): the office, not the gate. */
  viewReports: ['super_admin', 'tenant_admin', 'back_office'],
  /** The scheduled report e-mail, a tenant setting (issue 23). */
  scheduleReports: ['super_admin', 'tenant_admin'],
  /** The audit log viewer and its export (issue 23). */
  viewAuditLog: ['super_admin', 'tenant_admin'],
  /** The alerts bell and list: see and acknowledge alerts (issue 22). */
  viewAlerts: ['super_admin', 'tenant_admin', 'back_office'],
  /** Alert routing and Web Push subscriptions. */
  manageAlerts: ['super_admin', 'tenant_admin'],
  /** Issue 21: a supervisor's override of a refused entry, with a reason. */
  overrideEntries: ['tenant_admin', 'back_office'],
  /** Issue 21: a refused entry overridden with a supervisor's one-time PIN (at the gate). */
  pinOverrideEntries: ['tenant_admin', 'back_office', 'security_guard'],
} as const satisfies Record<string, readonly Role[]>;
export type RoleAction = keyof typeof ACTION_ROLES;

export function roleMay(role: Role, action: RoleAction): boolean {
  return (ACTION_ROLES[action] as readonly Role[]).includes(role);
}

export { afterPasswordChangePathFor, landingPathFor } from './role-paths';
