import type { ExportEntryLogsQuery } from '@boomgate/contracts/exports';
import { EXPORT_ROW_COUNT_HEADER } from '@boomgate/contracts/exports';
import { readCountHeader } from '@boomgate/contracts/primitives';

import { requestDownload } from '@/lib/api-client';

/** Rows written so far out of the export's total (CSV), or bytes only (XLSX is compressed). */
export type ExportProgress = { rows: number | null; total: number; bytes: number };

/** Issue 23's exports of a range of site days, each with its route and file name. */
export const EXPORT_KINDS = {
  entries: { path: '/api/exports/entry-logs', fileStem: 'entries' },
  refusals: { path: '/api/exports/refusals', fileStem: 'refusals' },
  watchlistHits: { path: '/api/exports/watchlist-hits', fileStem: 'watchlist-hits' },
  weighbridgeTickets: { path: '/api/exports/weighbridge-tickets', fileStem: 'weighbridge-tickets' },
} as const;
export type ExportKind = keyof typeof EXPORT_KINDS;

const LINE_FEED = 10;

/**
 * One export streamed: progress as it arrives (a CSV row ends with a line feed; the header row is
 * not counted), then the whole file. Fetched, not linked, so the password can be confirmed when
 * the server asks for it again (401 REAUTH_REQUIRED).
 */
export function downloadExport(
  kind: ExportKind,
  query: ExportEntryLogsQuery,
  onProgress: (progress: ExportProgress) => void,
): Promise<Blob> {
  const params = new URLSearchParams({ format: query.format, from: query.from, to: query.to });
  if (query.siteId) params.set('siteId', query.siteId);
  let lines = 0;
  return requestDownload(`${EXPORT_KINDS[kind].path}?${params.toString()}`, {
    onProgress: ({ bytes, headers, chunk }) => {
      const total = readCountHeader(headers, EXPORT_ROW_COUNT_HEADER);
      if (query.format !== 'csv') return onProgress({ rows: null, total, bytes });
      for (const byte of chunk) if (byte === LINE_FEED) lines += 1;
      onProgress({ rows: Math.max(0, lines - 1), total, bytes });
    },
  });
}

/** GET /api/exports/entry-logs (the entries export). */
export const downloadEntryExport = (
  query: ExportEntryLogsQuery,
  onProgress: (progress: ExportProgress) => void,
) => downloadExport('entries', query, onProgress);
