import type { FastifyInstance } from 'fastify';

import type { Role } from '@boomgate/contracts/roles';

/**
 * Every route says who may call it; the app refuses to start if one does not (see app.ts).
 * `public`: no session needed. `roles`: a signed-in user with one of these roles.
 * `allowPendingPasswordChange`: reachable while an admin-set password is still unchanged.
 */
export type Access =
  { public: true } | { roles: readonly Role[]; allowPendingPasswordChange?: boolean };

export const ALL_ROLES: readonly Role[] = [
  'super_admin',
  'tenant_admin',
  'back_office',
  'security_guard',
];

export const publicAccess = (): { access: Access } => ({ access: { public: true } });

export const rolesAccess = (
  roles: readonly Role[],
  options: { allowPendingPasswordChange?: boolean } = {},
): { access: Access } => ({ access: { roles, ...options } });

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
}

/** Every API route must say who may call it: an undeclared route stops the app at start-up. */
export function requireAccessDeclarations(
  app: FastifyInstance,
  { isApiRoute }: { isApiRoute: (url: string) => boolean },
) {
  app.addHook('onRoute', (route) => {
    if (isApiRoute(route.url) && !route.config?.access) {
      throw new Error(
        `Route ${route.method.toString()} ${route.url} does not declare its access (config.access)`,
      );
    }
  });
}
