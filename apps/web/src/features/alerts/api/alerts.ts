import {
  infiniteQueryOptions,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { z } from 'zod';

import {
  ALERT_UNREAD_COUNT_HEADER,
  type Alert,
  AlertListSchema,
  AlertSchema,
  type AlertSettings,
  AlertSettingsSchema,
  type AlertState,
  PushKeySchema,
  type PushSubscriptionBody,
} from '@boomgate/contracts/alerts';
import { NEXT_CURSOR_HEADER, readCountHeader } from '@boomgate/contracts/primitives';

import { request, requestWithHeaders } from '@/lib/api-client';

export const alertKeys = {
  all: ['alerts'] as const,
  list: (state: AlertState | 'all') => ['alerts', 'list', state] as const,
  settings: ['alerts', 'settings'] as const,
};

export type AlertPage = { alerts: Alert[]; unreadCount: number; nextCursor: string | null };

async function getAlertPage(
  state: AlertState | 'all',
  cursor: string | undefined,
  signal?: AbortSignal,
): Promise<AlertPage> {
  const { data, headers } = await requestWithHeaders('GET', '/api/alerts', {
    schema: AlertListSchema,
    query: { state: state === 'all' ? undefined : state, cursor },
    signal,
  });
  return {
    alerts: data,
    unreadCount: readCountHeader(headers, ALERT_UNREAD_COUNT_HEADER),
    nextCursor: headers.get(NEXT_CURSOR_HEADER) || null,
  };
}

export const alertsQuery = (state: AlertState | 'all') =>
  infiniteQueryOptions({
    queryKey: alertKeys.list(state),
    queryFn: ({ pageParam, signal }) => getAlertPage(state, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (lastPage) => lastPage.nextCursor ?? undefined,
  });

export function useAlerts(state: AlertState | 'all') {
  return useInfiniteQuery(alertsQuery(state));
}

export function useAcknowledgeAlert() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      request('POST', `/api/alerts/${encodeURIComponent(id)}/acknowledge`, {
        schema: AlertSchema,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: alertKeys.all }),
  });
}

export const alertSettingsQuery = () =>
  queryOptions({
    queryKey: alertKeys.settings,
    queryFn: ({ signal }) =>
      request('GET', '/api/settings/alerts', { schema: AlertSettingsSchema, signal }),
  });

export function useAlertSettings() {
  return useQuery(alertSettingsQuery());
}

export function useUpdateAlertSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Partial<AlertSettings>) =>
      request('PATCH', '/api/settings/alerts', { schema: AlertSettingsSchema, body }),
    onSuccess: (settings) => queryClient.setQueryData(alertKeys.settings, settings),
  });
}

export const getPushKey = () => request('GET', '/api/alerts/push-key', { schema: PushKeySchema });

export const savePushSubscription = (body: PushSubscriptionBody) =>
  request('POST', '/api/alerts/push-subscriptions', { schema: z.null(), body });

export const deletePushSubscription = (endpoint: string) =>
  request('DELETE', '/api/alerts/push-subscriptions', { schema: z.unknown(), body: { endpoint } });
