/**
 * Entry logs: every attempt at the gate (auto gate and real gate), granted or refused with its
 * reason, with the verdicts the server decided (register, face comparison records), the rules'
 * typed warnings (entry-rules.ts) and who recorded it; the dashboard's figures.
 * Owns: entry_logs, entry_log_daily_counts, entry_overrides (issue 21).
 */
import type { AuditService } from '@/modules/audit';
import type { CapturesService } from '@/modules/captures';
import type { CorrectionsService } from '@/modules/corrections';
import { citedReadings } from '@/modules/documents';
import type { FacesService } from '@/modules/faces';
import type { ImagesService } from '@/modules/images';
import type { ColumnSealer } from '@/platform/sealing';

import { type ExportJoins, createEntryExportRepository } from './entry-export.repository';
import { entryExportRoutes } from './entry-export.routes';
import { createEntryExportService } from './entry-export.service';
import { createEntryDetail } from './entry-detail';
import { createEntryLogsRepository } from './entry-logs.repository';
import { entryLogsRoutes } from './entry-logs.routes';
import { type EntryLogsServiceDeps, createEntryLogsService } from './entry-logs.service';
import { createEntryLogsPersonalData } from './entry-logs.personal-data';
import { createEntryOverrides } from './entry-overrides';
import { ENTRY_SEALED_COLUMNS, createEntrySealing } from './entry-sealing';

export type { EntryLogsService } from './entry-logs.service';
export type { EntryOverrides, EntryWithOverride, OverrideAuthority } from './entry-overrides';
export { entryAsSeenBy, entryLogPresenter } from './entry-logs.routes';
export { checkRig } from './rig-check';
/** Issue 26: masks the numbers that warnings stored before quoted in full (keys.seal-stored-data). */
export { createMaskedWarningsTable, maskedWarningsTable } from './entry-warnings-masking';
/** Issue 28: an entry a site node recorded (the site-sync module applies it). */
export { insertSiteEntry } from './site-entries';
/** Issue 21: the gate's cross-checks, for the incoming feed's document rules. */
export { crossCheckWarnings } from './entry-rules';

export function createEntryLogsModule(
  deps: Omit<EntryLogsServiceDeps, 'repository' | 'images' | 'readings'> & {
    images: EntryLogsServiceDeps['images'] & Pick<ImagesService, 'urlFor'>;
    /** Other modules' columns in the export (the weighbridge ticket's number). */
    exportJoins: ExportJoins;
    // Issue 15: what the entry detail reads besides the entry.
    captures: EntryLogsServiceDeps['captures'] & Pick<CapturesService, 'findByImageKeys'>;
    corrections: EntryLogsServiceDeps['corrections'] & Pick<CorrectionsService, 'listFor'>;
    faces: EntryLogsServiceDeps['faces'] & Pick<FacesService, 'findForEntry'>;
    audit: EntryLogsServiceDeps['audit'] & Pick<AuditService, 'listAbout'>;
    /** The tenant keyring: ID and passport numbers are sealed at rest (issue 26). */
    sealer: ColumnSealer;
  },
) {
  const sealing = createEntrySealing(deps.sealer);
  const repository = createEntryLogsRepository(sealing);
  const service = createEntryLogsService({
    ...deps,
    repository,
    // Issue 26: the cited personal documents' fields are sealed at rest, opened by the keyring.
    readings: (tx, tenantId, ids) => citedReadings(tx, tenantId, ids, deps.sealer),
  });
  const entryDetail = createEntryDetail({ ...deps, repository });
  // Issue 21: POST /api/entry-logs/{id}/override.
  const overrides = createEntryOverrides({ ...deps, sealing });
  // Personal data about drivers and image retention (the privacy module runs them).
  const personalData = createEntryLogsPersonalData({ images: deps.images, sealing });
  const exports = createEntryExportService({
    database: deps.database,
    audit: deps.audit,
    repository: createEntryExportRepository(deps.exportJoins, sealing),
  });
  return {
    service,
    overrides,
    routes: entryLogsRoutes(service, deps.images, overrides, entryDetail),
    exportRoutes: entryExportRoutes(exports),
    personalData,
    /** What the keys module's jobs seal (entries stored before issue 26) and re-seal. */
    sealedColumns: ENTRY_SEALED_COLUMNS,
  };
}
