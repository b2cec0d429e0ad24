/**
 * Barriers (issue 17): opening a gate's boom through a site agent that connects out from the
 * site's LAN (packages/agent). Agent tokens, the agents' WebSocket, manual openings and the
 * opening for a granted entry (`openForEntry`), each audited; presence (connected, last seen) and the barriers.offline-scan job that raises
 * device_offline. Owns: gate_agents.
 */
import { createBarrierJobs } from './barriers.jobs';
import { createBarriersRepository } from './barriers.repository';
import { barriersRoutes } from './barriers.routes';
import { type BarriersServiceDeps, createBarriersService } from './barriers.service';

export type { BarriersService, BarrierSettings } from './barriers.service';

export function createBarriersModule(deps: Omit<BarriersServiceDeps, 'repository'>) {
  const service = createBarriersService({ ...deps, repository: createBarriersRepository() });
  return { service, routes: barriersRoutes(service), ...createBarrierJobs(service) };
}
