/**
 * Users: the people of a tenant, their single role and active state. Admin-set passwords force
 * a change at next sign-in; deactivation and password resets end the user's sessions.
 * Owns: users.
 */
import { createUsersRepository } from './users.repository';
import { usersRoutes } from './users.routes';
import { type UsersServiceDeps, createUsersService } from './users.service';

export type { UsersService } from './users.service';
export type { UserRow } from './users.table';
export { toUser } from './users.routes';

export function createUsersModule(deps: Omit<UsersServiceDeps, 'repository'>) {
  const service = createUsersService({ ...deps, repository: createUsersRepository() });
  return { service, routes: usersRoutes(service) };
}
