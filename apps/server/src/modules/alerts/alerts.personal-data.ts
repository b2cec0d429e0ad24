import { and, eq, inArray } from 'drizzle-orm';

import type { Tx } from '@/platform/db';
import type { DataSubject, PersonalDataProvider } from '@/platform/personal-data';

import { alerts } from './alerts.table';
import type { AlertRow } from './alerts.table';

/** What an erased alert says instead: the kind and the plate (kept, as the entry keeps it). */
export function erasedAlertMessage(row: Pick<AlertRow, 'plateNumber'>, title: string): string {
  return `${title}${row.plateNumber ? ` for ${row.plateNumber}` : ''} (details erased on request).`;
}

const rowsOf = (tx: Tx, subject: DataSubject) =>
  subject.entryIds.length === 0
    ? Promise.resolve([] as AlertRow[])
    : tx
        .select()
        .from(alerts)
        .where(
          and(eq(alerts.tenantId, subject.tenantId), inArray(alerts.entryId, subject.entryIds)),
        )
        .orderBy(alerts.createdAt);

/**
 * Alerts about the subject's gate entries: their messages can name the driver (a watchlist hit on
 * a name, a masked ID number). Erasure keeps the alert (what, when, who acknowledged it) and
 * replaces the message with one that names no person.
 */
export function createAlertsPersonalData(
  titleOf: (kind: AlertRow['kind']) => string,
): PersonalDataProvider {
  return {
    section: 'alerts',

    exportSubject: (tx, subject) => rowsOf(tx, subject),

    async eraseSubject(tx, subject) {
      let rows = 0;
      for (const row of await rowsOf(tx, subject)) {
        const message = erasedAlertMessage(row, titleOf(row.kind));
        if (row.message === message) continue;
        await tx
          .update(alerts)
          .set({ message })
          .where(and(eq(alerts.tenantId, subject.tenantId), eq(alerts.id, row.id)));
        rows++;
      }
      return { rows, imageKeys: [] };
    },
  };
}
