import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';

import {
  type AuditEvent,
  type AuditEventFilters,
  AuditEventListSchema,
} from '@boomgate/contracts/audit';
import { NEXT_CURSOR_HEADER } from '@boomgate/contracts/primitives';

import { requestBlob, requestWithHeaders } from '@/lib/api-client';

export type AuditEventsPage = { events: AuditEvent[]; nextCursor: string | null };

export const auditKeys = {
  all: ['audit-events'] as const,
  list: (filters: AuditEventFilters) => [...auditKeys.all, filters] as const,
};

/** Only the filters that are set, as query parameters. */
function queryOf(filters: AuditEventFilters): Record<string, string> {
  return Object.fromEntries(
    Object.entries(filters).filter((entry): entry is [string, string] => Boolean(entry[1])),
  );
}

async function getAuditEventsPage(
  filters: AuditEventFilters,
  cursor: string | undefined,
  signal?: AbortSignal,
): Promise<AuditEventsPage> {
  const { data, headers } = await requestWithHeaders('GET', '/api/audit-events', {
    schema: AuditEventListSchema,
    query: { ...queryOf(filters), cursor },
    signal,
  });
  return { events: data, nextCursor: headers.get(NEXT_CURSOR_HEADER) || null };
}

/** GET /api/audit-events a page at a time (newest first) for the filters. */
export function useAuditEvents(filters: AuditEventFilters) {
  return useInfiniteQuery(
    infiniteQueryOptions({
      queryKey: auditKeys.list(filters),
      queryFn: ({ pageParam, signal }) => getAuditEventsPage(filters, pageParam, signal),
      initialPageParam: undefined as string | undefined,
      getNextPageParam: (lastPage) => lastPage.nextCursor ?? undefined,
    }),
  );
}

/**
 * GET /api/audit-events/export: the filtered view as CSV. Fetched (not linked) so the password
 * can be confirmed when the server asks for it again (401 REAUTH_REQUIRED, SEC-25).
 */
export function downloadAuditExport(filters: AuditEventFilters): Promise<Blob> {
  const query = new URLSearchParams({ format: 'csv', ...queryOf(filters) });
  return requestBlob('GET', `/api/audit-events/export?${query.toString()}`);
}
