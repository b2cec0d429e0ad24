/**
 * Supervisor override PINs (issue 21): an organization turns them on
 * (GET/PATCH /api/settings/override-pins), a supervisor issues a one-time PIN
 * (POST /api/overrides/pins) and a guard overrides one refused entry with it
 * (POST /api/entry-logs/{id}/pin-override), through the entry-logs module's overrides.
 * Owns: override_pin_settings, override_pins.
 */
import type { EntryLog } from '@boomgate/contracts/entry-logs';
import type { Role } from '@boomgate/contracts/roles';

import type { EntryWithOverride } from '@/modules/entry-logs';

import { createOverridePinsRepository } from './override-pins.repository';
import { overridePinsRoutes } from './override-pins.routes';
import { type OverridePinsServiceDeps, createOverridePinsService } from './override-pins.service';

export type { OverridePinsService } from './override-pins.service';

export function createOverridePinsModule(
  deps: Omit<OverridePinsServiceDeps, 'repository'> & {
    /** The entry as the caller's role may see it (the entry-logs module's presenter). */
    present: (role: Role, row: EntryWithOverride) => EntryLog;
  },
) {
  const service = createOverridePinsService({
    ...deps,
    repository: createOverridePinsRepository(),
  });
  return { service, routes: overridePinsRoutes(service, deps.present) };
}
