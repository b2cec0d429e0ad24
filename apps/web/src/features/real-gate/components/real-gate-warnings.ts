import { i18next, type TFunction } from '@/lib/i18n';

import { crossCheckWarnings } from './cross-checks';
import type { RealGateData } from './real-gate-machine';
import { plateWarning, plateWarningText } from './real-gate-entry';

/**
 * What the guard sees while the checklist runs: the document cross-checks as a preview, plus the
 * guard's own notes. The entry's recorded warnings are the server's (issue 14): it runs the same
 * checks on the saved documents and answers them with the entry, shown once it is saved.
 */
export function entryWarnings(
  data: RealGateData,
  today: Date = new Date(),
  t: TFunction<'realGate'> = i18next.getFixedT(null, 'realGate'),
): string[] {
  const warnings = crossCheckWarnings(
    {
      plateNumber: data.plate?.plateNumber ?? null,
      disc: data.disc?.reading ?? null,
      identity: data.identity?.reading ?? null,
      licence: data.licence?.reading ?? null,
      passport: data.passport?.reading ?? null,
    },
    today,
    t,
  );
  // Issue 19: shown in the chosen language; guardNotes() sends the same notes in English.
  const typedPlate = plateWarningText(t, data.plate);
  if (typedPlate) warnings.unshift(typedPlate);
  if (data.face?.note) warnings.push(t('crossChecks.facePhoto', { note: data.face.note }));
  return warnings;
}

/** What only the guard's screen knows, sent with the entry as notes: a typed plate, a doubted face. */
export function guardNotes(data: RealGateData): string[] {
  const typedPlate = plateWarning(data.plate);
  return [
    ...(typedPlate ? [typedPlate] : []),
    ...(data.face?.note ? [`Face photo: ${data.face.note}`] : []),
  ];
}
