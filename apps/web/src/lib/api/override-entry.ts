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
