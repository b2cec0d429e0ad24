/**
 * Settings: each organization's own choices — how long biometric data and document images are
 * kept, how long a passed induction stays valid, and whether anti-spoofing gates the face check.
 * Owns no table: the settings are columns of `tenants`.
 */
import { settingsRoutes } from './settings.routes';
import { type SettingsServiceDeps, createSettingsService } from './settings.service';

export type { SettingsService } from './settings.service';

export function createSettingsModule(deps: SettingsServiceDeps) {
  const service = createSettingsService(deps);
  return { service, routes: settingsRoutes(service) };
}
