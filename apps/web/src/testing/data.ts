import type { AuthResponse, Tenant } from '@boomgate/contracts/auth';
import type { User } from '@boomgate/contracts/users';

export function aTenant(overrides: Partial<Tenant> = {}): Tenant {
  return { id: crypto.randomUUID(), name: 'Sishen Iron Ore Mine', ...overrides };
}

export function aUser(overrides: Partial<User> = {}): User {
  return {
    id: crypto.randomUUID(),
    username: 'thandi',
    fullName: 'Thandi Nkosi',
    email: null,
    role: 'tenant_admin',
    isActive: true,
    ...overrides,
  };
}

export function aSession(
  overrides: {
    user?: Partial<User>;
    tenant?: Partial<Tenant>;
    requirePasswordChange?: boolean;
    requireMfaEnrolment?: boolean;
  } = {},
): AuthResponse {
  return {
    user: aUser(overrides.user),
    tenant: aTenant(overrides.tenant),
    ...(overrides.requirePasswordChange === undefined
      ? {}
      : { requirePasswordChange: overrides.requirePasswordChange }),
    ...(overrides.requireMfaEnrolment ? { requireMfaEnrolment: true } : {}),
  };
}
