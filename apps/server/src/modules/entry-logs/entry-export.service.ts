import {
  ENTRY_EXPORT_COLUMNS,
  type ExportEntryLogsQuery,
  REFUSAL_EXPORT_COLUMNS,
  WEIGHBRIDGE_TICKET_EXPORT_COLUMNS,
} from '@boomgate/contracts/exports';

import type { AuditService } from '@/modules/audit';
import { gvmKilograms } from '@/modules/document-rules';
import type { Actor } from '@/modules/sessions';
import { siteDayRange, siteTimestamp } from '@/platform/calendar';
import type { Database } from '@/platform/db';
import { type ExportCell, type ExportFile, exportWithAudit } from '@/platform/spreadsheet-export';
import { maskIdentifier } from '@/platform/personal-data';

import type {
  EntryExportRow,
  ExportRange,
  createEntryExportRepository,
} from './entry-export.repository';

export type EntryExportFile = ExportFile;

const yesNo = (value: boolean) => (value ? 'Yes' : 'No');
const warningsOf = (row: EntryExportRow) =>
  row.warnings.map((warning) => warning.message).join('; ') || null;
const maskedIdOf = (row: EntryExportRow) =>
  maskIdentifier(row.driverIdNumber ?? row.driverPassportNumber);

/** One entry as the export's cells, in ENTRY_EXPORT_COLUMNS order. */
export function entryExportCells(row: EntryExportRow): ExportCell[] {
  return [
    siteTimestamp(row.timestamp),
    row.plateNumber,
    row.extractedPlate,
    row.category,
    row.driverName,
    row.driverSurname,
    maskedIdOf(row),
    row.transportName,
    row.reference,
    yesNo(row.vehicleApproved),
    yesNo(row.faceVerified),
    yesNo(row.entryGranted),
    row.refusalReason,
    row.gateName,
    row.exitedAtMs === null ? null : siteTimestamp(new Date(Number(row.exitedAtMs))),
    row.turnaroundMinutes === null ? null : Number(row.turnaroundMinutes),
    warningsOf(row),
  ];
}

/** One refused entry, in REFUSAL_EXPORT_COLUMNS order. */
export function refusalExportCells(row: EntryExportRow): ExportCell[] {
  return [
    siteTimestamp(row.timestamp),
    row.plateNumber,
    row.extractedPlate,
    row.category,
    row.driverName,
    row.driverSurname,
    maskedIdOf(row),
    row.transportName,
    yesNo(row.vehicleApproved),
    yesNo(row.faceVerified),
    row.refusalReason,
    row.gateName,
    warningsOf(row),
  ];
}

/**
 * Overloaded when the ticket's gross mass exceeds the disc's GVM; null when it cannot be checked:
 * a rig (the truck-tractor's GVM is not the combination's limit) or a mass not shown. The same
 * rule as the reports' hourly weighbridge counts (migration 0068).
 */
export function overloadOf(row: EntryExportRow): boolean | null {
  const isRig = row.trailerPlates.length > 0 || row.trailerLicenceDiscIds.length > 0;
  const gross = row.ticket?.grossWeightKg ?? null;
  const gvm = gvmKilograms(row.gvm);
  if (isRig || gross === null || gvm === null) return null;
  return gross > gvm;
}

/** One entry with its weighbridge ticket, in WEIGHBRIDGE_TICKET_EXPORT_COLUMNS order. */
export function weighbridgeExportCells(row: EntryExportRow): ExportCell[] {
  const ticket = row.ticket;
  const overloaded = overloadOf(row);
  const consistent = ticket?.weightsConsistent ?? null;
  return [
    siteTimestamp(row.timestamp),
    row.plateNumber,
    row.transportName ?? ticket?.transporter ?? null,
    ticket?.ticketNumber ?? null,
    ticket?.vehicleReg ?? null,
    ticket?.tareWeightKg ?? null,
    ticket?.grossWeightKg ?? null,
    ticket?.netWeightKg ?? null,
    consistent === null ? null : yesNo(consistent),
    gvmKilograms(row.gvm),
    overloaded === null ? null : yesNo(overloaded),
    yesNo(row.entryGranted),
    row.gateName,
  ];
}

const KINDS = {
  entries: {
    only: undefined,
    action: 'entry-logs.exported',
    header: ENTRY_EXPORT_COLUMNS,
    sheetName: 'Entries',
    fileStem: 'entries',
    cells: entryExportCells,
  },
  refusals: {
    only: 'refused',
    action: 'refusals.exported',
    header: REFUSAL_EXPORT_COLUMNS,
    sheetName: 'Refusals',
    fileStem: 'refusals',
    cells: refusalExportCells,
  },
  weighbridge: {
    only: 'weighed',
    action: 'weighbridge-tickets.exported',
    header: WEIGHBRIDGE_TICKET_EXPORT_COLUMNS,
    sheetName: 'Weighbridge tickets',
    fileStem: 'weighbridge-tickets',
    cells: weighbridgeExportCells,
  },
} as const satisfies Record<
  string,
  {
    only: ExportRange['only'];
    action: string;
    header: readonly string[];
    sheetName: string;
    fileStem: string;
    cells: (row: EntryExportRow) => ExportCell[];
  }
>;

export type EntryExportKind = keyof typeof KINDS;

/**
 * Issue 23: the entries of a range of site days (all, the refusals, or those with a weighbridge
 * ticket), streamed as CSV or XLSX a batch at a time (a million rows never sit in memory),
 * audited with the filters and the row count.
 */
export function createEntryExportService({
  database,
  audit,
  repository,
}: {
  database: Pick<Database, 'withTenant'>;
  audit: Pick<AuditService, 'record'>;
  repository: ReturnType<typeof createEntryExportRepository>;
}) {
  function exportKind(
    kind: EntryExportKind,
    actor: Actor,
    query: ExportEntryLogsQuery,
    ip?: string,
  ): Promise<ExportFile> {
    const spec = KINDS[kind];
    const range: ExportRange = {
      ...siteDayRange(query.from, query.to),
      siteId: query.siteId,
      only: spec.only,
    };
    const tenantId = actor.tenantId;
    return exportWithAudit(
      { database, audit },
      { actor, query, ip },
      {
        ...spec,
        targetType: 'entry_log',
        count: (tx) => repository.countEntries(tx, tenantId, range),
        read: (tx, after: { timestamp: Date; id: string } | undefined, limit) =>
          repository.entryBatch(tx, tenantId, range, limit, after),
        cursorOf: (row) => ({ timestamp: row.timestamp, id: row.id }),
      },
    );
  }

  return {
    exportEntries: (actor: Actor, query: ExportEntryLogsQuery, ip?: string) =>
      exportKind('entries', actor, query, ip),
    exportRefusals: (actor: Actor, query: ExportEntryLogsQuery, ip?: string) =>
      exportKind('refusals', actor, query, ip),
    exportWeighbridgeTickets: (actor: Actor, query: ExportEntryLogsQuery, ip?: string) =>
      exportKind('weighbridge', actor, query, ip),
  };
}
