import { type AnyColumn, type SQL, and, desc, eq, sql } from 'drizzle-orm';

import type { DbExecutor } from '@/platform/db';

import {
  driversLicences,
  identityDocuments,
  licenceDiscs,
  passports,
  weighbridgeTickets,
} from './documents.table';

/** What an export shows of an entry's weighbridge ticket. */
export type TicketWeights = {
  ticketNumber: string | null;
  vehicleReg: string | null;
  transporter: string | null;
  tareWeightKg: number | null;
  grossWeightKg: number | null;
  netWeightKg: number | null;
  weightsConsistent: boolean | null;
};

export type DocumentsRepository = ReturnType<typeof createDocumentsRepository>;

export function createDocumentsRepository() {
  return {
    /** A weighbridge ticket's number by the caller's columns, as a scalar subquery (exports). */
    ticketNumberSql: (tenantId: AnyColumn, ticketId: AnyColumn): SQL<string | null> =>
      sql<string | null>`(select ${weighbridgeTickets.ticketNumber} from ${weighbridgeTickets}
        where ${weighbridgeTickets.tenantId} = ${tenantId} and ${weighbridgeTickets.id} = ${ticketId})`,
    /** A weighbridge ticket's number and weights as one JSON object (exports); null without one. */
    ticketWeightsSql: (tenantId: AnyColumn, ticketId: AnyColumn): SQL<TicketWeights | null> =>
      sql<TicketWeights | null>`(select json_build_object(
          'ticketNumber', ${weighbridgeTickets.ticketNumber}, 'vehicleReg', ${weighbridgeTickets.vehicleReg},
          'transporter', ${weighbridgeTickets.fields}->>'transporter',
          'tareWeightKg', ${weighbridgeTickets.tareWeightKg}, 'grossWeightKg', ${weighbridgeTickets.grossWeightKg},
          'netWeightKg', ${weighbridgeTickets.netWeightKg}, 'weightsConsistent', ${weighbridgeTickets.weightsConsistent})
        from ${weighbridgeTickets}
        where ${weighbridgeTickets.tenantId} = ${tenantId} and ${weighbridgeTickets.id} = ${ticketId})`,
    /** The GVM printed on a licence disc, as read (exports). */
    discGvmSql: (tenantId: AnyColumn, discId: AnyColumn): SQL<string | null> =>
      sql<string | null>`(select ${licenceDiscs.fields}->>'gvm' from ${licenceDiscs}
        where ${licenceDiscs.tenantId} = ${tenantId} and ${licenceDiscs.id} = ${discId})`,
    insertLicenceDisc: async (tx: DbExecutor, row: typeof licenceDiscs.$inferInsert) => {
      await tx.insert(licenceDiscs).values(row);
    },
    insertIdentityDocument: async (tx: DbExecutor, row: typeof identityDocuments.$inferInsert) => {
      await tx.insert(identityDocuments).values(row);
    },
    insertDriversLicence: async (tx: DbExecutor, row: typeof driversLicences.$inferInsert) => {
      await tx.insert(driversLicences).values(row);
    },
    insertPassport: async (tx: DbExecutor, row: typeof passports.$inferInsert) => {
      await tx.insert(passports).values(row);
    },
    insertWeighbridgeTicket: async (
      tx: DbExecutor,
      row: typeof weighbridgeTickets.$inferInsert,
    ) => {
      await tx.insert(weighbridgeTickets).values(row);
    },
    listWeighbridgeTickets: (tx: DbExecutor, tenantId: string, limit: number) =>
      tx
        .select()
        .from(weighbridgeTickets)
        .where(eq(weighbridgeTickets.tenantId, tenantId))
        .orderBy(desc(weighbridgeTickets.createdAt))
        .limit(limit),
    async findWeighbridgeTicket(tx: DbExecutor, tenantId: string, id: string) {
      const rows = await tx
        .select()
        .from(weighbridgeTickets)
        .where(and(eq(weighbridgeTickets.tenantId, tenantId), eq(weighbridgeTickets.id, id)))
        .limit(1);
      return rows[0];
    },
  };
}
