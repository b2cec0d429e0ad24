import type { Role } from './roles';

// Kept apart from roles.ts, which builds zod schemas when loaded: the web app's session check
// needs these before anything else and does not load zod for them.

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
