import { useMutation, useQueryClient } from '@tanstack/react-query';

import { EntryLogSchema } from '@boomgate/contracts/entry-logs';

import { request } from '@/lib/api-client';
import { gateKeys } from '@/lib/api/query-keys';

/** POST /api/entry-logs/{id}/override (issue 21): a supervisor grants a refused entry. */
export function useOverrideEntry() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, reason }: { id: string; reason: string }) =>
      request('POST', `/api/entry-logs/${encodeURIComponent(id)}/override`, {
        schema: EntryLogSchema,
        body: { reason },
      }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: gateKeys.dashboard });
      await queryClient.invalidateQueries({ queryKey: gateKeys.entryLogs });
    },
  });
}

/**
 * POST /api/entry-logs/{id}/pin-override (issue 21): a guard grants a refused entry with a
 * supervisor's one-time PIN and a reason.
 */
export function usePinOverrideEntry() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: { id: string; pin: string; reason: string }) =>
      request('POST', `/api/entry-logs/${encodeURIComponent(id)}/pin-override`, {
        schema: EntryLogSchema,
        body,
      }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: gateKeys.dashboard });
      await queryClient.invalidateQueries({ queryKey: gateKeys.entryLogs });
    },
  });
}
