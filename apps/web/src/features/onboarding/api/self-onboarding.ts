import { useMutation, useQueryClient } from '@tanstack/react-query';

import { type SelfOnboardingBody, SelfOnboardedSchema } from '@boomgate/contracts/drivers';

import { request } from '@/lib/api-client';

import { onboardingKeys } from './company-onboarding';

/** POST /api/onboarding/self: stores the driver; answers the signed reference for the QR code. */
export function useSelfOnboard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SelfOnboardingBody) =>
      request('POST', '/api/onboarding/self', { schema: SelfOnboardedSchema, body }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: onboardingKeys.drivers }),
  });
}
