/**
 * ANPR: number-plate cameras that push reads (Hikvision ISAPI event push or a generic JSON shape)
 * to a per-camera secret URL. Each read becomes a truck-list entry, checked against the approved
 * vehicles; a silent camera raises device_offline (issue 22). Owns: anpr_cameras.
 */
import { createAnprJobs } from './anpr.jobs';
import { createAnprRepository } from './anpr.repository';
import { anprPushRoutes, anprRoutes } from './anpr.routes';
import { type AnprServiceDeps, createAnprService } from './anpr.service';

export type { AnprService } from './anpr.service';

export function createAnprModule(deps: Omit<AnprServiceDeps, 'repository'>) {
  const service = createAnprService({ ...deps, repository: createAnprRepository() });
  return {
    service,
    routes: anprRoutes(service),
    pushRoutes: anprPushRoutes(service),
    ...createAnprJobs(service),
  };
}
