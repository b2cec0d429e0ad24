/**
 * Corrections (issue 15): fields the guard typed, confirmed or corrected, kept beside the values
 * the engine read (with confidence and source), who typed them and when. Saved with the record
 * they belong to (an entry, a document); shown on the entry detail. Owns: reading_corrections.
 */
import type { AuditService } from '@/modules/audit';
import type { CapturesService } from '@/modules/captures';
import type { SiteFacts } from '@/modules/site-node';
import type { Clock } from '@/platform/clock';
import type { Database } from '@/platform/db';
import type { ColumnSealer } from '@/platform/sealing';

import { correctionsSealedTable, withSealedCorrections } from './corrections-sealing';

import { createCorrectionsPersonalData } from './corrections.personal-data';
import { createCorrectionsRepository } from './corrections.repository';
import { createCorrectionsService } from './corrections.service';

export {
  type CorrectionTarget,
  type CorrectionsService,
  asTypedText,
  correctionKind,
  toCorrection,
} from './corrections.service';
export type { ReadingCorrectionRow } from './corrections.table';

export function createCorrectionsModule(deps: {
  captures: Pick<CapturesService, 'findReading'>;
  audit: Pick<AuditService, 'record'>;
  clock: Clock;
  /** Issue 28: on a site node, each correction is also a fact for central. */
  siteFacts?: SiteFacts;
  database: Pick<Database, 'withTenant' | 'db'>;
  /** The tenant keyring: ID and passport numbers in corrections are sealed (issue 26). */
  sealer: ColumnSealer;
}) {
  const repository = withSealedCorrections(createCorrectionsRepository(), deps.sealer);
  return {
    service: createCorrectionsService({ ...deps, repository }),
    // Before the entry logs' provider: it finds the subject's corrections through their entries.
    personalData: createCorrectionsPersonalData(deps.sealer),
    /** What keys.seal-stored-data seals and keys.reseal re-seals. */
    sealedTable: correctionsSealedTable(deps.database, deps.sealer),
  };
}
