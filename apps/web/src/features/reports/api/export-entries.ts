import type { ExportEntryLogsQuery } from '@boomgate/contracts/exports';
import { EXPORT_ROW_COUNT_HEADER } from '@boomgate/contracts/exports';
import { readCountHeader } from '@boomgate/contracts/primitives';

import { requestDownload } from '@/lib/api-client';

/** Rows written so far out of the export's total (CSV), or bytes only (XLSX is compressed). */
export type ExportProgress = { rows: number | null; total: number; bytes: number };

const LINE_FEED = 10;

/**
 * GET /api/exports/entry-logs streamed: progress as it arrives (a CSV row ends with a line
 * feed; the header row is not counted), then the whole file. Fetched, not linked, so the
 * password can be confirmed when the server asks for it again (401 REAUTH_REQUIRED).
 */
export function downloadEntryExport(
  query: ExportEntryLogsQuery,
  onProgress: (progress: ExportProgress) => void,
): Promise<Blob> {
  const params = new URLSearchParams({ format: query.format, from: query.from, to: query.to });
  if (query.siteId) params.set('siteId', query.siteId);
  let lines = 0;
  return requestDownload(`/api/exports/entry-logs?${params.toString()}`, {
    onProgress: ({ bytes, headers, chunk }) => {
      const total = readCountHeader(headers, EXPORT_ROW_COUNT_HEADER);
      if (query.format !== 'csv') return onProgress({ rows: null, total, bytes });
      for (const byte of chunk) if (byte === LINE_FEED) lines += 1;
      onProgress({ rows: Math.max(0, lines - 1), total, bytes });
    },
  });
}
