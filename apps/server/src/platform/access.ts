import type { FastifyInstance, RouteOptions } from 'fastify';

import type { Role } from '@boomgate/contracts/roles';

/**
 * Every route says who may call it; the app refuses to start if one does not (see app.ts).
 * `public`: no session needed. `roles`: a signed-in user with one of these roles.
 * `allowPendingPasswordChange`: reachable while an admin-set password is still unchanged.
 * `ownAccount`: concerns the caller's own account, so a super_admin cannot send it acting for
 * another organization (routes with `allowPendingPasswordChange` are such routes too).
 * `recentAuthentication`: the password must have been given in the last REAUTHENTICATION_MINUTES
 * (sign-in or POST /api/auth/reauth), else 401 REAUTH_REQUIRED (SEC-25: bulk exports and erasure of
 * personal data).
 * `allowPendingMfaEnrolment`: reachable while a required second factor is still to be set up
 * (SEC-26; the sign-in is limited to enrolment, like a forced password change).
 * `secondFactor`: the second sign-in step. Only these routes answer a session that still owes its
 * second factor (every other route 401); a complete session gets 409 from them.
 */
export type Access =
  | { public: true }
  | {
      roles: readonly Role[];
      allowPendingPasswordChange?: boolean;
      ownAccount?: boolean;
      recentAuthentication?: boolean;
      allowPendingMfaEnrolment?: boolean;
      secondFactor?: boolean;
    };

/** How long a sign-in or re-authentication counts as recent for `recentAuthentication` routes. */
export const REAUTHENTICATION_MINUTES = 15;

export const ALL_ROLES: readonly Role[] = [
  'super_admin',
  'tenant_admin',
  'back_office',
  'security_guard',
];

/**
 * SEC-11: a super_admin acts for another organization only explicitly, per request: this header
 * names the tenant and ACT_REASON_HEADER says why; every such request is audited in that tenant.
 * Anyone else sending it gets 403.
 */
export const ACT_FOR_TENANT_HEADER = 'x-boomgate-tenant';
export const ACT_REASON_HEADER = 'x-boomgate-reason';

export const publicAccess = (): { access: Access } => ({ access: { public: true } });

export const rolesAccess = (
  roles: readonly Role[],
  options: {
    allowPendingPasswordChange?: boolean;
    ownAccount?: boolean;
    recentAuthentication?: boolean;
    allowPendingMfaEnrolment?: boolean;
    secondFactor?: boolean;
  } = {},
): { access: Access } => ({ access: { roles, ...options } });

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
}

/** An API route as registered: what the authorization matrix and the fuzz tests walk. */
export type DeclaredRoute = {
  method: string;
  url: string;
  access: Access;
  schema: RouteOptions['schema'];
  bodyLimit: number | undefined;
  /** The route's handler, so a test can see whether it reads the query string (SEC-66). */
  handler: RouteOptions['handler'];
};

const declaredRoutesByApp = new WeakMap<FastifyInstance, DeclaredRoute[]>();

/** Every API route registered on `app` (HEAD twins of GET routes left out). */
export function declaredRoutes(app: FastifyInstance): readonly DeclaredRoute[] {
  return declaredRoutesByApp.get(app) ?? [];
}

/** Every API route must say who may call it: an undeclared route stops the app at start-up. */
export function requireAccessDeclarations(
  app: FastifyInstance,
  { isApiRoute }: { isApiRoute: (url: string) => boolean },
) {
  const routes: DeclaredRoute[] = [];
  declaredRoutesByApp.set(app, routes);
  app.addHook('onRoute', (route) => {
    if (!isApiRoute(route.url)) return;
    const access = route.config?.access;
    if (!access) {
      throw new Error(
        `Route ${route.method.toString()} ${route.url} does not declare its access (config.access)`,
      );
    }
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      routes.push({
        method,
        url: route.url,
        access,
        schema: route.schema,
        bodyLimit: route.bodyLimit,
        handler: route.handler,
      });
    }
  });
}
