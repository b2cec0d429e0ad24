/**
 * Entry logs: every attempt at the gate (auto gate and real gate), granted or refused with its
 * reason, with the verdicts the server decided (register, face comparison records), the rules'
 * typed warnings (entry-rules.ts) and who recorded it; the dashboard's figures.
 * Owns: entry_logs, entry_log_daily_counts, entry_overrides (issue 21).
 */
import type { ImagesService } from '@/modules/images';

import { type ExportJoins, createEntryExportRepository } from './entry-export.repository';
import { entryExportRoutes } from './entry-export.routes';
import { createEntryExportService } from './entry-export.service';
import { createEntryLogsRepository } from './entry-logs.repository';
import { entryLogsRoutes } from './entry-logs.routes';
import { type EntryLogsServiceDeps, createEntryLogsService } from './entry-logs.service';
import { createEntryLogsPersonalData } from './entry-logs.personal-data';
import { createEntryOverrides } from './entry-overrides';

export type { EntryLogsService } from './entry-logs.service';

export function createEntryLogsModule(
  deps: Omit<EntryLogsServiceDeps, 'repository' | 'images'> & {
    images: EntryLogsServiceDeps['images'] & Pick<ImagesService, 'urlFor'>;
    /** Other modules' columns in the export (the weighbridge ticket's number). */
    exportJoins: ExportJoins;
  },
) {
  const service = createEntryLogsService({ ...deps, repository: createEntryLogsRepository() });
  // Issue 21: POST /api/entry-logs/{id}/override.
  const overrides = createEntryOverrides(deps);
  // Personal data about drivers and image retention (the privacy module runs them).
  const personalData = createEntryLogsPersonalData({ images: deps.images });
  const exports = createEntryExportService({
    database: deps.database,
    audit: deps.audit,
    repository: createEntryExportRepository(deps.exportJoins),
  });
  return {
    service,
    routes: entryLogsRoutes(service, deps.images, overrides),
    exportRoutes: entryExportRoutes(exports),
    personalData,
  };
}
