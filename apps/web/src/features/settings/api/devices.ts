import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { GuardDeviceListSchema, GuardDeviceSchema } from '@boomgate/contracts/devices';

import { request } from '@/lib/api-client';

export const deviceKeys = { all: ['devices'] as const };

/** GET /api/devices (issue 18): the guards' devices, last contact first. */
export function useDevices() {
  return useQuery({
    queryKey: deviceKeys.all,
    queryFn: ({ signal }) =>
      request('GET', '/api/devices', { schema: GuardDeviceListSchema, signal }),
  });
}

/** POST /api/devices/{id}/revoke: the device wipes its queue and cache at its next contact. */
export function useRevokeDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      request('POST', `/api/devices/${id}/revoke`, { schema: GuardDeviceSchema }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: deviceKeys.all }),
  });
}
