import { useMutation, useQueryClient } from '@tanstack/react-query';

import { EntryWithBarrierSchema } from '@boomgate/contracts/barriers';
import type { GrantEntryBody } from '@boomgate/contracts/entry-logs';

import { request } from '@/lib/api-client';

import { gateKeys } from './query-keys';

export type GrantEntryVariables = { body: GrantEntryBody; idempotencyKey: string };

/**
 * POST /api/auto-gate/grant-entry with an Idempotency-Key, so a retried request never logs the
 * entry twice. Refreshes the dashboard, entry logs and truck list.
 */
export function useGrantEntry() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: GrantEntryVariables) =>
      request('POST', '/api/auto-gate/grant-entry', {
        // A new entry says what its gate's barrier did; a replayed one (200) does not.
        schema: EntryWithBarrierSchema.partial({ barrier: true }),
        body,
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
    onSuccess: () => {
      for (const queryKey of [gateKeys.dashboard, gateKeys.entryLogs, gateKeys.truckList]) {
        void queryClient.invalidateQueries({ queryKey });
      }
    },
  });
}
