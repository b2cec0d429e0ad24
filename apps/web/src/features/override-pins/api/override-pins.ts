import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import {
  IssuedOverridePinSchema,
  OverridePinSettingsSchema,
  type UpdateOverridePinSettings,
} from '@boomgate/contracts/override-pins';

import { request } from '@/lib/api-client';

export const overridePinKeys = { settings: ['override-pins', 'settings'] as const };

export const overridePinSettingsQuery = () =>
  queryOptions({
    queryKey: overridePinKeys.settings,
    queryFn: ({ signal }) =>
      request('GET', '/api/settings/override-pins', { schema: OverridePinSettingsSchema, signal }),
  });

export function useOverridePinSettings() {
  return useQuery(overridePinSettingsQuery());
}

export function useUpdateOverridePinSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateOverridePinSettings) =>
      request('PATCH', '/api/settings/override-pins', { schema: OverridePinSettingsSchema, body }),
    onSuccess: (settings) => queryClient.setQueryData(overridePinKeys.settings, settings),
  });
}

/** POST /api/overrides/pins: a one-time PIN, shown once. */
export function useIssueOverridePin() {
  return useMutation({
    mutationFn: () =>
      request('POST', '/api/overrides/pins', { schema: IssuedOverridePinSchema, body: {} }),
  });
}
