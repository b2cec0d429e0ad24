/**
 * Onboarding: companies add drivers and their vehicles in bulk (CSV/XLSX template, row-by-row
 * preview, one-transaction import, error report) or one at a time; drivers register themselves
 * (details, licence photo, liveness selfie) and get a signed reference for a QR code.
 * Owns no table: it writes through the drivers and approved-vehicles modules.
 */
import type { ImagesService } from '@/modules/images';

import { onboardingRoutes } from './onboarding.routes';
import { type OnboardingServiceDeps, createOnboardingService } from './onboarding.service';

export type { OnboardingService } from './onboarding.service';

export function createOnboardingModule(
  deps: Omit<OnboardingServiceDeps, 'images'> & {
    images: OnboardingServiceDeps['images'] & Pick<ImagesService, 'urlFor'>;
  },
) {
  const service = createOnboardingService(deps);
  return { service, routes: onboardingRoutes(service, deps.images, deps.clock) };
}
