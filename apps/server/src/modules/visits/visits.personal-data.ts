import { and, eq, inArray, or, sql } from 'drizzle-orm';

import type { Tx } from '@/platform/db';
import {
  type DataSubject,
  type PersonalDataProvider,
  entryNamesSubject,
} from '@/platform/personal-data';

import { visits } from './visits.table';

/**
 * Visits about a person: signed in on foot with their ID or passport number, or the driver of an
 * entry that names them (the visit copied the driver's name). Erasure keeps the visit (when, which
 * site, plate, company, exit: the roll-call's history) and removes the name and number.
 */
const rowsOf = (tx: Tx, subject: DataSubject) => {
  const numbers = [subject.idNumber, ...subject.passportNumbers];
  return tx
    .select()
    .from(visits)
    .where(
      and(
        eq(visits.tenantId, subject.tenantId),
        or(
          inArray(visits.personIdNumber, numbers),
          // The driver's entries, as the entry logs' provider finds them (issue 26: by the keyed
          // hashes of the numbers; entries not sealed yet by their plain numbers).
          sql`${visits.entryLogId} in (select e.id from entry_logs e where e.tenant_id = ${subject.tenantId}::uuid and ${entryNamesSubject(subject)})`,
        ),
      ),
    )
    .orderBy(visits.enteredAt);
};

export function createVisitsPersonalData(): PersonalDataProvider {
  return {
    section: 'visits',

    async exportSubject(tx, subject) {
      return rowsOf(tx, subject);
    },

    async eraseSubject(tx, subject) {
      const ids = (await rowsOf(tx, subject))
        .filter((row) => row.personName !== null || row.personIdNumber !== null)
        .map((row) => row.id);
      if (ids.length === 0) return { rows: 0, imageKeys: [] };
      const changed = await tx
        .update(visits)
        .set({ personName: null, personIdNumber: null })
        .where(and(eq(visits.tenantId, subject.tenantId), inArray(visits.id, ids)))
        .returning({ id: visits.id });
      return { rows: changed.length, imageKeys: [] };
    },
  };
}
