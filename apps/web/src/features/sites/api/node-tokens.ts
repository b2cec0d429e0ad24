import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';

import {
  type CreateSiteNodeToken,
  CreatedSiteNodeTokenSchema,
  SiteNodeTokenSchema,
} from '@boomgate/contracts/site-sync';
import { NoContentSchema } from '@boomgate/contracts/primitives';

import { request } from '@/lib/api-client';

const nodeTokensKey = (siteId: string) => ['sites', siteId, 'node-tokens'] as const;

/** Issue 28: the site's node tokens, revoked ones too, each with its node's last sync. */
export function useNodeTokens(siteId: string) {
  return useQuery({
    queryKey: nodeTokensKey(siteId),
    queryFn: ({ signal }) =>
      request('GET', `/api/sites/${siteId}/node-tokens`, {
        schema: z.array(SiteNodeTokenSchema),
        signal,
      }),
    // The last sync moves every 15 s while a node is up; central's `stale` turns after 60 s.
    refetchInterval: 15_000,
  });
}

export function useCreateNodeToken(siteId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateSiteNodeToken) =>
      request('POST', `/api/sites/${siteId}/node-tokens`, {
        schema: CreatedSiteNodeTokenSchema,
        body,
      }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: nodeTokensKey(siteId) }),
  });
}

export function useRevokeNodeToken(siteId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (tokenId: string) =>
      request('DELETE', `/api/sites/${siteId}/node-tokens/${tokenId}`, {
        schema: NoContentSchema,
      }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: nodeTokensKey(siteId) }),
  });
}
