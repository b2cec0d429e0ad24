import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import {
  IntegrationSchema,
  IntegrationSecretSchema,
  type SetCallbackUrlBody,
  WebhookDeliveryListSchema,
  WebhookDeliverySchema,
} from '@boomgate/contracts/webhooks';

import { request } from '@/lib/api-client';

export const integrationKeys = {
  integration: ['integrations'] as const,
  deliveries: ['integrations', 'deliveries'] as const,
};

export const integrationQuery = () =>
  queryOptions({
    queryKey: integrationKeys.integration,
    queryFn: ({ signal }) =>
      request('GET', '/api/integrations', { schema: IntegrationSchema, signal }),
  });

export const deliveriesQuery = () =>
  queryOptions({
    queryKey: integrationKeys.deliveries,
    queryFn: ({ signal }) =>
      request('GET', '/api/integrations/deliveries', {
        schema: WebhookDeliveryListSchema,
        signal,
      }),
  });

export function useIntegration() {
  return useQuery(integrationQuery());
}

export function useDeliveries() {
  return useQuery(deliveriesQuery());
}

/** POST /api/integrations/secret: creates or rotates the secret; the answer is the only time it is shown. */
export function useRotateSecret() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      request('POST', '/api/integrations/secret', { schema: IntegrationSecretSchema }),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: integrationKeys.integration, exact: true }),
  });
}

export function useSetCallbackUrl() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SetCallbackUrlBody) =>
      request('PATCH', '/api/integrations', { schema: IntegrationSchema, body }),
    onSuccess: (integration) => queryClient.setQueryData(integrationKeys.integration, integration),
  });
}

export function useReplayDelivery() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      request('POST', `/api/integrations/deliveries/${encodeURIComponent(id)}/replay`, {
        schema: WebhookDeliverySchema,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: integrationKeys.deliveries }),
  });
}
