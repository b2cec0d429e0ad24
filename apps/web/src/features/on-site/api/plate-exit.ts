import { useMutation, useQueryClient } from '@tanstack/react-query';

import { type RecordPlateExitBody, VisitSchema } from '@boomgate/contracts/visits';

import { request } from '@/lib/api-client';
import { gateKeys } from '@/lib/api/query-keys';

/**
 * POST /api/visits/plate-exit: a guard at an out-lane scans or types the plate of a vehicle
 * leaving; the server finds its visit at the guard's site and records the exit.
 */
export function useRecordPlateExit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RecordPlateExitBody) =>
      request('POST', '/api/visits/plate-exit', { schema: VisitSchema, body }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['on-site'] });
      void queryClient.invalidateQueries({ queryKey: gateKeys.dashboard });
    },
  });
}
