import { useQuery } from '@tanstack/react-query';

import { GateBarrierStatusSchema } from '@boomgate/contracts/barriers';

import { request } from '@/lib/api-client';

/** How often the presence badge asks again: agents heartbeat every few seconds. */
const PRESENCE_REFRESH_MS = 15_000;

/** Issue 17: whether the gate's barrier agent is connected, and when it was last heard from. */
export function useGateBarrier(gateId: string) {
  return useQuery({
    queryKey: ['gates', gateId, 'barrier'] as const,
    queryFn: ({ signal }) =>
      request('GET', `/api/gates/${gateId}/barrier`, { schema: GateBarrierStatusSchema, signal }),
    refetchInterval: PRESENCE_REFRESH_MS,
  });
}
