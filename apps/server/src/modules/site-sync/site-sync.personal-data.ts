import { sql } from 'drizzle-orm';

import type { Tx } from '@/platform/db';
import type { DataSubject, PersonalDataProvider } from '@/platform/personal-data';

/** The members of a site fact's payload that name a person (entry and visit rows, documents). */
export const PERSONAL_PAYLOAD_KEYS = [
  'driver_name',
  'driver_surname',
  'driver_id_number',
  'driver_passport_number',
  'driver_phone1',
  'driver_phone2',
  'driver_phone3',
  'person_name',
  'person_id_number',
  // Issue 28e: the rows of the documents an entry cites (names, numbers) ride with its fact.
  'documents',
] as const;

type EventRow = {
  id: string;
  kind: string;
  site_id: string;
  gate_id: string | null;
  seq: number;
  site_recorded_at: string;
  central_received_at: string;
  payload: Record<string, unknown>;
};

/**
 * Site facts about a driver (issue 28): the entries the subject's entry logs came from (same id),
 * the exits of those entries, and any fact whose payload names the subject's ID or passport
 * number. Erasure keeps the fact (when, where, what was decided) and removes the members that
 * name a person; the table's trigger allows no other change.
 */
const rowsOf = async (tx: Tx, subject: DataSubject) => {
  const numbers = [subject.idNumber, ...subject.passportNumbers];
  const result = await tx.execute<EventRow>(sql`
    select id, kind, site_id, gate_id, seq, site_recorded_at, central_received_at, payload
    from site_sync_events
    where tenant_id = ${subject.tenantId}::uuid
      and (id = any(${sql.param(subject.entryIds)}::uuid[])
        or (kind = 'exit' and (payload->>'entry_log_id') = any(${sql.param(subject.entryIds)}::text[]))
        or (payload->>'driver_id_number') = any(${sql.param(numbers)}::text[])
        or (payload->>'driver_passport_number') = any(${sql.param(numbers)}::text[])
        or (payload->>'person_id_number') = any(${sql.param(numbers)}::text[]))
    order by site_recorded_at, id`);
  return result.rows;
};

export function createSiteSyncPersonalData(): PersonalDataProvider {
  return {
    section: 'siteSyncEvents',

    exportSubject: async (tx, subject) => rowsOf(tx, subject),

    async eraseSubject(tx, subject) {
      const ids = (await rowsOf(tx, subject))
        .filter((row) => PERSONAL_PAYLOAD_KEYS.some((key) => key in row.payload))
        .map((row) => row.id);
      if (ids.length === 0) return { rows: 0, imageKeys: [] };
      const result = await tx.execute<{ id: string }>(sql`
        update site_sync_events set payload = payload - ${sql.param([...PERSONAL_PAYLOAD_KEYS])}::text[]
        where tenant_id = ${subject.tenantId}::uuid and id = any(${sql.param(ids)}::uuid[])
        returning id`);
      return { rows: result.rows.length, imageKeys: [] };
    },
  };
}
