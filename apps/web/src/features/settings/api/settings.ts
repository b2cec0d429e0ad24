import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { TenantSettingsSchema, type UpdateTenantSettings } from '@boomgate/contracts/settings';

import { request } from '@/lib/api-client';

export const settingsKeys = { all: ['settings'] as const };

export const settingsQuery = () =>
  queryOptions({
    queryKey: settingsKeys.all,
    queryFn: ({ signal }) =>
      request('GET', '/api/settings', { schema: TenantSettingsSchema, signal }),
  });

export function useSettings() {
  return useQuery(settingsQuery());
}

export function useUpdateSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateTenantSettings) =>
      request('PATCH', '/api/settings', { schema: TenantSettingsSchema, body }),
    onSuccess: (settings) => queryClient.setQueryData(settingsKeys.all, settings),
  });
}
