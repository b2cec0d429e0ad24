import { type ExportRangeQuery, WATCHLIST_HIT_EXPORT_COLUMNS } from '@boomgate/contracts/exports';

import type { AuditService } from '@/modules/audit';
import type { Actor } from '@/modules/sessions';
import { siteDayRange, siteTimestamp } from '@/platform/calendar';
import type { Database } from '@/platform/db';
import { type ExportCell, type ExportFile, exportWithAudit } from '@/platform/spreadsheet-export';

import { WATCHLIST_HIT_ACTION } from './watchlist.service';

type HitEvent = {
  id: string;
  occurredAt: Date;
  details: Record<string, unknown> | null;
};

const WHERE = {
  'grant-entry': 'Gate',
  'incoming-feed': 'Incoming feed',
  'pre-registration': 'Pre-registration',
} as const;
const KIND = { plate: 'Plate', idNumber: 'Driver ID number', company: 'Company' } as const;
const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
const label = <T extends Record<string, string>>(labels: T, value: unknown) =>
  typeof value === 'string' ? (labels[value] ?? value) : null;

/**
 * One hit as the export's cells (WATCHLIST_HIT_EXPORT_COLUMNS order), from its `watchlist.hit`
 * audit event: the value is as audited (an ID number already masked).
 */
export function watchlistHitCells(event: HitEvent): ExportCell[] {
  const d = event.details ?? {};
  return [
    siteTimestamp(event.occurredAt),
    label(KIND, d.kind),
    text(d.value),
    text(d.severity),
    text(d.reason),
    d.covert === true ? 'Yes' : 'No',
    text(d.decision),
    label(WHERE, d.gatePath),
    d.subjectType === 'entry_log' ? text(d.subjectId) : null,
  ];
}

/**
 * Issue 23: the watchlist hits of a range of site days, read from their audit events (the hit's
 * record of truth) a batch at a time, streamed as CSV or XLSX, audited. A site is the entry's
 * (recorded with hits since issue 23); the incoming feed's hits have none and show only in an
 * export of every site.
 */
export function createWatchlistExportService({
  database,
  audit,
}: {
  database: Pick<Database, 'withTenant'>;
  audit: Pick<AuditService, 'record' | 'countAction' | 'listActionBatch'>;
}) {
  return {
    exportHits(actor: Actor, query: ExportRangeQuery, ip?: string): Promise<ExportFile> {
      const tenantId = actor.tenantId;
      const range = {
        ...siteDayRange(query.from, query.to),
        action: WATCHLIST_HIT_ACTION,
        siteId: query.siteId,
      };
      return exportWithAudit(
        { database, audit },
        { actor, query, ip },
        {
          action: 'watchlist-hits.exported',
          targetType: 'watchlist_entry',
          fileStem: 'watchlist-hits',
          sheetName: 'Watchlist hits',
          header: WATCHLIST_HIT_EXPORT_COLUMNS,
          count: (tx) => audit.countAction(tx, tenantId, range),
          read: (tx, after: { occurredAt: Date; id: string } | undefined, limit) =>
            audit.listActionBatch(tx, tenantId, range, limit, after),
          cursorOf: (row) => ({ occurredAt: row.occurredAt, id: row.id }),
          cells: watchlistHitCells,
        },
      );
    },
  };
}

export type WatchlistExportService = ReturnType<typeof createWatchlistExportService>;
