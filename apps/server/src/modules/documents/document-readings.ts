import { and, eq, getTableName } from 'drizzle-orm';

import type { DbExecutor } from '@/platform/db';
import { AppError } from '@/platform/errors';

import { type FieldsOpener, openFields } from './document-sealing';

import {
  driversLicences,
  identityDocuments,
  licenceDiscs,
  passports,
  weighbridgeTickets,
} from './documents.table';

/** The documents an entry cites, by the grant-entry field that cites each. */
export type CitedDocumentIds = {
  vehicleLicenceDiscId: string | null;
  identityDocumentId: string | null;
  driversLicenceId: string | null;
  passportRecordId: string | null;
  weighbridgeTicketId: string | null;
};

type Text = string | null;

/**
 * What the entry's rules read from each cited document. This is the one adapter between the
 * stored readings and the rules: today it reads the `fields` each record was saved with; when the
 * typed readings land (packages/contracts readings) only this file changes.
 */
export type CitedReadings = {
  disc: { plate: Text; vehicleRegisterNo: Text; dateOfExpiry: Text; gvm: Text } | null;
  identity: {
    identityNumber: Text;
    givenNames: Text;
    surname: Text;
    dateOfExpiry: Text;
    phone1: Text;
    phone2: Text;
  } | null;
  licence: {
    nameOnCard: Text;
    idNumber: Text;
    validTo: Text;
    prdpExpiry: Text;
    /** The PrDP categories as read ("G", "G,P"); null when the licence shows none. */
    prdpCode: Text;
    vehicleCode: Text;
    phone1: Text;
    phone2: Text;
    phone3: Text;
  } | null;
  passport: { passportNumber: Text; givenNames: Text; surname: Text; expiryDate: Text } | null;
  /** `trailerRegs`: the ticket's trailer registrations as written ("ABC123GP, DEF456GP"). */
  ticket: { vehicleReg: Text; transporter: Text; trailerRegs: Text } | null;
  /** Issue 21: the trailers' licence discs, in the order cited (absent: none cited). */
  trailerDiscs?: { id: string; plate: Text; discNumber: Text; dateOfExpiry: Text }[];
};

type Fields = Record<string, string | number | null>;

/** citedReadings with the keyring bound (what the entry and the feed's completion call). */
export type CitedReadingsReader = (
  tx: DbExecutor,
  tenantId: string,
  ids: CitedDocumentIds & { trailerLicenceDiscIds?: readonly string[] },
) => Promise<CitedReadings>;

/** A stored field as trimmed text (numbers as written), null when absent or blank. */
const read = (fields: Fields, ...keys: string[]): Text => {
  for (const key of keys) {
    const value = fields[key];
    if (value === null || value === undefined) continue;
    const text = String(value).trim();
    if (text) return text;
  }
  return null;
};

async function fieldsOf(
  sealer: FieldsOpener,
  tx: DbExecutor,
  table:
    | typeof licenceDiscs
    | typeof identityDocuments
    | typeof driversLicences
    | typeof passports
    | typeof weighbridgeTickets,
  tenantId: string,
  id: string | null,
  citedAs: keyof CitedDocumentIds | 'trailerLicenceDiscIds',
): Promise<Fields | null> {
  if (id === null) return null;
  const rows = await tx
    .select({ fields: table.fields })
    .from(table)
    .where(and(eq(table.tenantId, tenantId), eq(table.id, id)))
    .limit(1);
  if (!rows[0])
    throw new AppError(
      'INVALID',
      `${citedAs}: no such document in this organization. Save the document first.`,
    );
  // Issue 26: a personal document's fields are sealed JSON text, opened here (never in SQL).
  return openFields(sealer, tenantId, getTableName(table), rows[0].fields);
}

/** The cited documents' readings; a cited id that is not a document of the tenant is a 400. */
export async function citedReadings(
  tx: DbExecutor,
  tenantId: string,
  // Issue 21: the trailers' licence discs, read like the truck-tractor's.
  ids: CitedDocumentIds & { trailerLicenceDiscIds?: readonly string[] },
  sealer: FieldsOpener,
): Promise<CitedReadings> {
  const disc = await fieldsOf(
    sealer,
    tx,
    licenceDiscs,
    tenantId,
    ids.vehicleLicenceDiscId,
    'vehicleLicenceDiscId',
  );
  const identity = await fieldsOf(
    sealer,
    tx,
    identityDocuments,
    tenantId,
    ids.identityDocumentId,
    'identityDocumentId',
  );
  const licence = await fieldsOf(
    sealer,
    tx,
    driversLicences,
    tenantId,
    ids.driversLicenceId,
    'driversLicenceId',
  );
  const passport = await fieldsOf(
    sealer,
    tx,
    passports,
    tenantId,
    ids.passportRecordId,
    'passportRecordId',
  );
  const ticket = await fieldsOf(
    sealer,
    tx,
    weighbridgeTickets,
    tenantId,
    ids.weighbridgeTicketId,
    'weighbridgeTicketId',
  );
  const trailerDiscs = [];
  for (const id of ids.trailerLicenceDiscIds ?? []) {
    const fields = await fieldsOf(sealer, tx, licenceDiscs, tenantId, id, 'trailerLicenceDiscIds');
    if (fields)
      trailerDiscs.push({
        id,
        plate: read(fields, 'licenceNumber'),
        discNumber: read(fields, 'discNumber'),
        dateOfExpiry: read(fields, 'dateOfExpiry'),
      });
  }
  return {
    trailerDiscs,
    // The disc's "Licence no." is the vehicle's registration (its plate); the register number is not.
    disc: disc && {
      plate: read(disc, 'licenceNumber'),
      vehicleRegisterNo: read(disc, 'vehicleRegisterNo', 'vehRegisterNo'),
      dateOfExpiry: read(disc, 'dateOfExpiry'),
      gvm: read(disc, 'gvm'),
    },
    identity: identity && {
      identityNumber: read(identity, 'identityNumber'),
      givenNames: read(identity, 'givenNames'),
      surname: read(identity, 'surname'),
      dateOfExpiry: read(identity, 'dateOfExpiry'),
      phone1: read(identity, 'phone1'),
      phone2: read(identity, 'phone2'),
    },
    licence: licence && {
      nameOnCard: read(licence, 'nameOnCard'),
      idNumber: read(licence, 'idNumber'),
      validTo: read(licence, 'validTo'),
      prdpExpiry: read(licence, 'prdpExpiry'),
      prdpCode: read(licence, 'prdpCode', 'prdpCodes'),
      vehicleCode: read(licence, 'vehicleCode', 'vehicleCodes'),
      phone1: read(licence, 'phone1'),
      phone2: read(licence, 'phone2'),
      phone3: read(licence, 'phone3'),
    },
    passport: passport && {
      passportNumber: read(passport, 'passportNumber'),
      givenNames: read(passport, 'givenNames'),
      surname: read(passport, 'surname'),
      expiryDate: read(passport, 'expiryDate'),
    },
    ticket: ticket && {
      vehicleReg: read(ticket, 'vehicleReg'),
      transporter: read(ticket, 'transporter'),
      trailerRegs: read(ticket, 'trailerRegs'),
    },
  };
}
