import {
  infiniteQueryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';

import { NEXT_CURSOR_HEADER } from '@boomgate/contracts/primitives';
import { type Visit, VisitListSchema, VisitSchema } from '@boomgate/contracts/visits';

import { toast } from '@/hooks/use-toast';
import { request, requestWithHeaders } from '@/lib/api-client';
import { i18next } from '@/lib/i18n';
import { isNetworkError, queueAction, reportUnreachable } from '@/lib/offline/offline-sync';
import { gateKeys } from '@/lib/api/query-keys';
import { sitesKey } from '@/lib/api/sites';

export const siteKeys = {
  sites: sitesKey,
  onSite: (siteId: string | undefined) => ['on-site', siteId ?? 'all'] as const,
  rollCall: (siteId: string | undefined) => ['on-site', 'roll-call', siteId ?? 'all'] as const,
};

export { useSites } from '@/lib/api/sites';

async function getOnSitePage(
  siteId: string | undefined,
  cursor: string | undefined,
  signal?: AbortSignal,
  limit?: number,
) {
  const { data, headers } = await requestWithHeaders('GET', '/api/on-site', {
    schema: VisitListSchema,
    query: { siteId, cursor, limit: limit === undefined ? undefined : String(limit) },
    signal,
  });
  return { visits: data, nextCursor: headers.get(NEXT_CURSOR_HEADER) || null };
}

/** GET /api/on-site, a page at a time (newest first). */
export function useOnSite(siteId: string | undefined) {
  return useInfiniteQuery(
    infiniteQueryOptions({
      queryKey: siteKeys.onSite(siteId),
      queryFn: ({ pageParam, signal }) => getOnSitePage(siteId, pageParam, signal),
      initialPageParam: undefined as string | undefined,
      getNextPageParam: (lastPage) => lastPage.nextCursor ?? undefined,
    }),
  );
}

/**
 * Records a vehicle's exit by its entry, or a person's by their visit, with an Idempotency-Key.
 * Issue 18: when the server cannot be reached, the exit (with its time) is queued on the device
 * under the same key and sent when the server answers; the server stores it once.
 */
export function useRecordExit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (visit: Pick<Visit, 'id' | 'entryLogId'>) => {
      const path = visit.entryLogId
        ? `/api/entry-logs/${visit.entryLogId}/exit`
        : `/api/visits/${visit.id}/exit`;
      const idempotencyKey = crypto.randomUUID();
      const body = { capturedAt: new Date().toISOString() };
      try {
        return await request('POST', path, {
          schema: VisitSchema,
          body,
          headers: { 'Idempotency-Key': idempotencyKey },
        });
      } catch (error) {
        if (!isNetworkError(error)) throw error;
        reportUnreachable();
        // Sent later: the server then takes the device's time, as it received nothing now.
        await queueAction({
          id: idempotencyKey,
          kind: 'exit',
          path,
          body: { ...body, recordedOffline: true },
        });
        toast({
          title: i18next.t('offline:exitQueuedTitle'),
          description: i18next.t('offline:exitQueuedDescription'),
        });
        return null;
      }
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['on-site'] });
      void queryClient.invalidateQueries({ queryKey: gateKeys.dashboard });
    },
  });
}

/** Signs in a person on foot (visitor, contractor, passenger). */
export function useSignInPerson() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { siteId?: string; name: string; idNumber?: string; company?: string }) =>
      request('POST', '/api/visits/people', { schema: VisitSchema, body }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['on-site'] }),
  });
}

/** The last roll-call list this browser saw, kept for when the network or server is gone. */
export type SavedRollCall = { savedAt: string; visits: Visit[] };

const ROLL_CALL_PAGE = 500;
/** A roll-call is everyone inside; this many pages (50,000 people) is a safety stop. */
const ROLL_CALL_MAX_PAGES = 100;
const storageKey = (siteId: string | undefined) => `boomgate.roll-call.${siteId ?? 'all'}`;

export function readSavedRollCall(siteId: string | undefined): SavedRollCall | null {
  try {
    const raw = window.localStorage.getItem(storageKey(siteId));
    if (!raw) return null;
    const parsed = JSON.parse(raw) as { savedAt?: unknown; visits?: unknown };
    const visits = VisitListSchema.safeParse(parsed.visits);
    if (typeof parsed.savedAt !== 'string' || !visits.success) return null;
    return { savedAt: parsed.savedAt, visits: visits.data };
  } catch {
    return null;
  }
}

function saveRollCall(siteId: string | undefined, visits: Visit[]): SavedRollCall {
  const saved = { savedAt: new Date().toISOString(), visits };
  try {
    window.localStorage.setItem(storageKey(siteId), JSON.stringify(saved));
  } catch {
    // A full or disabled storage: the list is still shown, just not kept.
  }
  return saved;
}

/**
 * The evacuation roll-call: everyone on site, every page. Each list fetched is saved in the
 * browser; when the server cannot be reached the last saved list is shown, marked as such.
 */
export function useRollCall(siteId: string | undefined) {
  return useQuery({
    queryKey: siteKeys.rollCall(siteId),
    // Always asked again on opening: the list on screen says whether it is live or the saved one.
    staleTime: 0,
    refetchOnMount: 'always',
    retry: false,
    queryFn: async ({ signal }): Promise<SavedRollCall & { offline: boolean }> => {
      try {
        const visits: Visit[] = [];
        let cursor: string | undefined;
        for (let page = 0; page < ROLL_CALL_MAX_PAGES; page += 1) {
          const next = await getOnSitePage(siteId, cursor, signal, ROLL_CALL_PAGE);
          visits.push(...next.visits);
          if (!next.nextCursor) break;
          cursor = next.nextCursor;
        }
        return { ...saveRollCall(siteId, visits), offline: false };
      } catch (error) {
        const saved = readSavedRollCall(siteId);
        if (saved) return { ...saved, offline: true };
        throw error;
      }
    },
  });
}
