import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import {
  type CreateGate,
  type CreateSite,
  GateListSchema,
  GateSchema,
  SiteSchema,
  type UpdateSite,
} from '@boomgate/contracts/sites';

import { request } from '@/lib/api-client';

import { siteKeys } from './on-site';

const gatesKey = (siteId: string) => ['sites', siteId, 'gates'] as const;

export function useGates(siteId: string) {
  return useQuery({
    queryKey: gatesKey(siteId),
    queryFn: ({ signal }) =>
      request('GET', `/api/sites/${siteId}/gates`, { schema: GateListSchema, signal }),
  });
}

export function useCreateSite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateSite) => request('POST', '/api/sites', { schema: SiteSchema, body }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: siteKeys.sites }),
  });
}

export function useUpdateSite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: UpdateSite & { id: string }) =>
      request('PATCH', `/api/sites/${id}`, { schema: SiteSchema, body }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: siteKeys.sites }),
  });
}

export function useCreateGate(siteId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateGate) =>
      request('POST', `/api/sites/${siteId}/gates`, { schema: GateSchema, body }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: gatesKey(siteId) }),
  });
}
