import { and, eq, inArray, isNull, or, sql } from 'drizzle-orm';

import type { Tx } from '@/platform/db';
import {
  type DataSubject,
  type PersonalDataProvider,
  entryNamesSubject,
} from '@/platform/personal-data';

import type { VisitsRepository } from './visits.repository';
import { visits } from './visits.table';

/**
 * Visits about a person: signed in on foot with their ID or passport number, or the driver of an
 * entry that names them (the visit copied the driver's name). Erasure keeps the visit (when, which
 * site, plate, company, exit: the roll-call's history) and removes the name and number.
 */
const rowsOf = (tx: Tx, subject: DataSubject) => {
  const numbers = [subject.idNumber, ...subject.passportNumbers];
  const hashes = [subject.numberHashes.idNumber, ...subject.numberHashes.passportNumbers];
  return tx
    .select()
    .from(visits)
    .where(
      and(
        eq(visits.tenantId, subject.tenantId),
        or(
          // Issue 26: by the keyed hash; a visit stored before sealing by its plain number.
          inArray(visits.personIdNumberHash, hashes),
          and(isNull(visits.personIdNumberHash), inArray(visits.personIdNumber, numbers)),
          // The driver's entries, as the entry logs' provider finds them (issue 26: by the keyed
          // hashes of the numbers; entries not sealed yet by their plain numbers).
          sql`${visits.entryLogId} in (select e.id from entry_logs e where e.tenant_id = ${subject.tenantId}::uuid and ${entryNamesSubject(subject)})`,
        ),
      ),
    )
    .orderBy(visits.enteredAt);
};

export function createVisitsPersonalData(
  repository: Pick<VisitsRepository, 'open'>,
): PersonalDataProvider {
  return {
    section: 'visits',

    async exportSubject(tx, subject) {
      const rows = await Promise.all((await rowsOf(tx, subject)).map(repository.open));
      return rows.map(({ personIdNumberHash: _hash, ...row }) => row);
    },

    async eraseSubject(tx, subject) {
      const ids = (await rowsOf(tx, subject))
        .filter((row) => row.personName !== null || row.personIdNumber !== null)
        .map((row) => row.id);
      if (ids.length === 0) return { rows: 0, imageKeys: [] };
      const changed = await tx
        .update(visits)
        .set({ personName: null, personIdNumber: null, personIdNumberHash: null })
        .where(and(eq(visits.tenantId, subject.tenantId), inArray(visits.id, ids)))
        .returning({ id: visits.id });
      return { rows: changed.length, imageKeys: [] };
    },
  };
}
