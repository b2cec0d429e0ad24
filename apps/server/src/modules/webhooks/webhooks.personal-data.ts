import { and, eq, inArray, isNull, or } from 'drizzle-orm';

import type { PersonalDataProvider } from '@/platform/personal-data';
import { type ColumnSealer, SA_ID_NUMBER } from '@/platform/sealing';

import { rewriteBody } from './sealed-deliveries';
import { INCOMING_ID_NUMBER } from './sealed-incoming';
import { incomingRequests, webhookDeliveries } from './webhooks.table';

/** Drops every `driver…` value of a callback body (the event's personal fields), keeping its shape. */
function redactDriverFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactDriverFields);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [
        key,
        key.startsWith('driver') ? null : redactDriverFields(inner),
      ]),
    );
  }
  return value;
}

/**
 * Entries posted by external systems about a driver, and the callbacks sent about them. Erasure
 * keeps each entry (when, which plate, its reference, who completed it) without the driver's
 * name, numbers, phone, date of birth and sex, and blanks the same fields in the stored callback
 * bodies (a callback not yet sent then goes out without them).
 */
export function createWebhooksPersonalData(
  sealer: Pick<ColumnSealer, 'seal' | 'open' | 'index'>,
): PersonalDataProvider {
  /**
   * Issue 26: by the keyed hash of the subject's ID number; an entry stored before sealing (no
   * hash yet) by its plain number, until keys.seal-stored-data has sealed it.
   */
  const entriesOf = async (
    tx: Parameters<PersonalDataProvider['exportSubject']>[0],
    tenantId: string,
    idNumber: string,
  ) =>
    tx
      .select()
      .from(incomingRequests)
      .where(
        and(
          eq(incomingRequests.tenantId, tenantId),
          or(
            eq(
              incomingRequests.driverIdNumberHash,
              await sealer.index(tenantId, SA_ID_NUMBER, idNumber),
            ),
            and(
              isNull(incomingRequests.driverIdNumberHash),
              eq(incomingRequests.driverIdNumber, idNumber),
            ),
          ),
        ),
      )
      .orderBy(incomingRequests.receivedAt);

  return {
    section: 'incomingRequests',

    async link(tx, tenantId, idNumber) {
      const rows = await entriesOf(tx, tenantId, idNumber);
      return {
        licenceNumbers: rows.map((row) => row.driverLicenseNumber).filter((n): n is string => !!n),
      };
    },

    async exportSubject(tx, { tenantId, idNumber }) {
      const rows = await entriesOf(tx, tenantId, idNumber);
      if (rows.length === 0) return [];
      const deliveries = await tx
        .select({
          id: webhookDeliveries.id,
          incomingRequestId: webhookDeliveries.incomingRequestId,
          webhookId: webhookDeliveries.webhookId,
          status: webhookDeliveries.status,
          deliveredAt: webhookDeliveries.deliveredAt,
        })
        .from(webhookDeliveries)
        .where(
          and(
            eq(webhookDeliveries.tenantId, tenantId),
            inArray(
              webhookDeliveries.incomingRequestId,
              rows.map((row) => row.id),
            ),
          ),
        );
      return Promise.all(
        rows.map(async ({ driverIdNumberHash: _hash, ...row }) => ({
          ...row,
          driverIdNumber:
            row.driverIdNumber &&
            (await sealer.open(tenantId, INCOMING_ID_NUMBER, row.driverIdNumber)),
          callbacks: deliveries.filter((delivery) => delivery.incomingRequestId === row.id),
        })),
      );
    },

    async eraseSubject(tx, { tenantId, idNumber }) {
      const rows = await entriesOf(tx, tenantId, idNumber);
      if (rows.length === 0) return { rows: 0, imageKeys: [] };
      const ids = rows.map((row) => row.id);
      await tx
        .update(incomingRequests)
        .set({
          driverName: null,
          driverSurname: null,
          driverIdNumber: null,
          driverIdNumberHash: null,
          driverPhone1: null,
          driverLicenseNumber: null,
          driverLicenseValidTo: null,
          driverDateOfBirth: null,
          driverSex: null,
        })
        .where(and(eq(incomingRequests.tenantId, tenantId), inArray(incomingRequests.id, ids)));
      const deliveries = await tx
        .select({
          tenantId: webhookDeliveries.tenantId,
          id: webhookDeliveries.id,
          body: webhookDeliveries.body,
        })
        .from(webhookDeliveries)
        .where(
          and(
            eq(webhookDeliveries.tenantId, tenantId),
            inArray(webhookDeliveries.incomingRequestId, ids),
          ),
        );
      // Sealed bodies (issue 26): opened, blanked and sealed again.
      for (const delivery of deliveries)
        await rewriteBody(sealer, tx, delivery, (body) =>
          JSON.stringify(redactDriverFields(JSON.parse(body))),
        );
      return { rows: rows.length + deliveries.length, imageKeys: [] };
    },
  };
}
