import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';

import {
  ApprovedVehicleListSchema,
  ApprovedVehicleSchema,
  type CreateApprovedVehicleBody,
  ProposalDecisionSchema,
  type UpdateTrailersBody,
} from '@boomgate/contracts/approved-vehicles';

import { request } from '@/lib/api-client';
import { gateKeys } from '@/lib/api/query-keys';

export const approvedVehiclesQuery = () =>
  queryOptions({
    queryKey: gateKeys.approvedVehicles,
    queryFn: ({ signal }) =>
      request('GET', '/api/approved-vehicles', { schema: ApprovedVehicleListSchema, signal }),
  });

export function useApprovedVehicles() {
  return useQuery(approvedVehiclesQuery());
}

/** After a change the list and the dashboard's "Registered Vehicles" figure are refreshed. */
function useInvalidateVehicles() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: gateKeys.approvedVehicles });
    void queryClient.invalidateQueries({ queryKey: gateKeys.dashboard });
  };
}

export function useRegisterVehicle() {
  const invalidate = useInvalidateVehicles();
  return useMutation({
    mutationFn: (body: CreateApprovedVehicleBody) =>
      request('POST', '/api/approved-vehicles', { schema: ApprovedVehicleSchema, body }),
    onSuccess: invalidate,
  });
}

/**
 * DELETE /api/approved-vehicles/:id answers 204 without a body, or, for a security guard under
 * separation of duties, 202 with the vehicle whose deletion now waits for approval.
 */
export function useDeleteVehicle() {
  const invalidate = useInvalidateVehicles();
  return useMutation({
    mutationFn: (id: string) =>
      request('DELETE', `/api/approved-vehicles/${encodeURIComponent(id)}`, {
        schema: z.union([z.null(), ApprovedVehicleSchema]),
      }),
    onSuccess: invalidate,
  });
}

/** Back office or an admin confirms or rejects a security guard's proposal. */
export function useDecideProposal() {
  const invalidate = useInvalidateVehicles();
  return useMutation({
    mutationFn: ({ id, decision }: { id: string; decision: 'confirm' | 'reject' }) =>
      request('POST', `/api/approved-vehicles/${encodeURIComponent(id)}/${decision}`, {
        schema: ProposalDecisionSchema,
        body: {},
      }),
    onSuccess: invalidate,
  });
}

/** Issue 21: back office or an admin replaces a vehicle's trailers (at most two). */
export function useUpdateTrailers() {
  const invalidate = useInvalidateVehicles();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdateTrailersBody }) =>
      request('PUT', `/api/approved-vehicles/${encodeURIComponent(id)}/trailers`, {
        schema: ApprovedVehicleSchema,
        body,
      }),
    onSuccess: invalidate,
  });
}
