import { and, arrayContains, eq, sql } from 'drizzle-orm';

import type { EmailPersonalDataProvider } from '@/platform/personal-data';

import { reportSchedules } from './reports.table';

/**
 * Scheduled report recipients are e-mail addresses of staff (or anyone the administrator named),
 * not drivers: a data-subject request by address finds the tenant's schedule naming it; erasure
 * takes the address off the list, and a schedule left with no recipient is deleted (it would
 * send to nobody, and saving one needs at least one recipient). Addresses are stored lower case.
 */
export function createReportSchedulesPersonalData(): EmailPersonalDataProvider {
  const naming = (tenantId: string, email: string) =>
    and(eq(reportSchedules.tenantId, tenantId), arrayContains(reportSchedules.recipients, [email]));
  return {
    section: 'reportSchedules',
    async exportEmail(tx, tenantId, email) {
      const rows = await tx.select().from(reportSchedules).where(naming(tenantId, email));
      return rows.map((row) => ({
        id: row.tenantId,
        recipient: email,
        otherRecipients: row.recipients.filter((address) => address !== email).length,
        frequency: row.frequency,
        format: row.format,
        siteId: row.siteId,
        nextSendAt: row.nextSendAt.toISOString(),
        updatedAt: row.updatedAt.toISOString(),
        updatedBy: row.updatedBy,
      }));
    },
    async eraseEmail(tx, tenantId, email) {
      const removed = await tx
        .update(reportSchedules)
        .set({ recipients: sql`array_remove(${reportSchedules.recipients}, ${email})` })
        .where(naming(tenantId, email))
        .returning({ recipients: reportSchedules.recipients });
      if (removed.some((row) => row.recipients.length === 0)) {
        await tx
          .delete(reportSchedules)
          .where(
            and(
              eq(reportSchedules.tenantId, tenantId),
              sql`cardinality(${reportSchedules.recipients}) = 0`,
            ),
          );
      }
      return removed.length;
    },
  };
}
