/**
 * Tenants: the organizations that use Boomgate. A tenant is created with its first admin at
 * registration (auth module). Owns: tenants.
 */
import { createTenantsRepository } from './tenants.repository';

export type { TenantsRepository } from './tenants.repository';
export type { TenantRow } from './tenants.table';

export function createTenantsModule() {
  return { repository: createTenantsRepository() };
}
export type TenantsModule = ReturnType<typeof createTenantsModule>;
