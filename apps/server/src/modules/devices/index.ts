/**
 * Devices (issue 18): the guards' phones and tablets that keep an offline queue and cache. Each
 * reports in when the server answers; an admin revokes a lost one, which is refused with
 * DEVICE_REVOKED at its next contact and wipes what it holds. Owns: guard_devices.
 */
import { createDevicesRepository } from './devices.repository';
import { devicesRoutes } from './devices.routes';
import { type DevicesServiceDeps, createDevicesService } from './devices.service';

export type { DevicesService } from './devices.service';

export function createDevicesModule(deps: Omit<DevicesServiceDeps, 'repository'>) {
  const service = createDevicesService({ ...deps, repository: createDevicesRepository() });
  return { service, routes: devicesRoutes(service) };
}
