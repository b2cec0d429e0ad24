import type { CorrectionInputSchema } from '@boomgate/contracts/corrections';
import type {
  DriversLicenceBodySchema,
  IdentityDocumentBodySchema,
  LicenceDiscBodySchema,
  PassportBodySchema,
  WeighbridgeTicketBodySchema,
} from '@boomgate/contracts/documents';
import type { z } from 'zod';

import type { AuditService } from '@/modules/audit';
import type { CapturesService } from '@/modules/captures';
import type { CorrectionsService } from '@/modules/corrections';
import type { ImageKind, ImagesService } from '@/modules/images';
import type { Actor } from '@/modules/sessions';
import type { Clock } from '@/platform/clock';
import type { Database, Tx } from '@/platform/db';
import { newId } from '@/platform/ids';
import { PASSPORT_NUMBER, SA_ID_NUMBER } from '@/platform/sealing';

import type { DocumentSealing } from './document-sealing';
import type { DocumentsRepository } from './documents.repository';
import { areWeightsConsistent } from './weights';

type LicenceDisc = z.output<typeof LicenceDiscBodySchema>;
type IdentityDocument = z.output<typeof IdentityDocumentBodySchema>;
type DriversLicence = z.output<typeof DriversLicenceBodySchema>;
type Passport = z.output<typeof PassportBodySchema>;
type WeighbridgeTicket = z.output<typeof WeighbridgeTicketBodySchema>;
type CorrectionInput = z.output<typeof CorrectionInputSchema>;

export type DocumentsServiceDeps = {
  database: Pick<Database, 'withTenant'>;
  repository: DocumentsRepository;
  images: Pick<ImagesService, 'storeOptional' | 'deleteImage'>;
  audit: Pick<AuditService, 'record'>;
  captures: Pick<CapturesService, 'resolveImage'>;
  corrections: Pick<CorrectionsService, 'record' | 'listForDocuments'>;
  clock: Clock;
  /** Issue 26: numbers and personal documents' fields sealed at rest. */
  sealing: DocumentSealing;
};

export type DocumentsService = ReturnType<typeof createDocumentsService>;

/** Drops the image payload and its capture id from what is kept as the document's fields. */
function fieldsOf<T extends Record<string, unknown>>(body: T, imageField: keyof T & string) {
  const fields: Record<string, string | number | null> = {};
  for (const [key, value] of Object.entries(body)) {
    if (
      key !== imageField &&
      key !== `${imageField}CaptureId` &&
      (typeof value === 'string' || typeof value === 'number' || value === null)
    )
      fields[key] = value;
  }
  return fields;
}

export function createDocumentsService({
  database,
  repository,
  images,
  audit,
  captures,
  corrections,
  clock,
  sealing,
}: DocumentsServiceDeps) {
  /**
   * Stores the image first; if the row cannot be written, the image is removed again. A cited
   * capture (`<image>CaptureId`) is resolved to its key in the row's transaction.
   */
  async function save(
    actor: Actor,
    kind: ImageKind,
    {
      image: imagePayload,
      captureId,
      typed,
    }: { image: string | null; captureId: string | null; typed: CorrectionInput[] },
    write: (
      tx: Tx,
      row: {
        tenantId: string;
        id: string;
        createdAt: Date;
        createdBy: string;
        imageKey: string | null;
      },
    ) => Promise<void>,
    ip?: string,
  ): Promise<{ id: string }> {
    const storedKey = await images.storeOptional(actor.tenantId, kind, imagePayload);
    const id = newId();
    try {
      await database.withTenant(actor.tenantId, async (tx) => {
        const imageKey = await captures.resolveImage(tx, actor, { image: storedKey, captureId });
        await write(tx, {
          tenantId: actor.tenantId,
          id,
          createdAt: clock.now(),
          createdBy: actor.userId,
          imageKey,
        });
        await audit.record(tx, {
          tenantId: actor.tenantId,
          actorUserId: actor.userId,
          action: `document.${kind}.saved`,
          targetType: kind,
          targetId: id,
          ip,
        });
        await corrections.record(tx, actor, { documentType: kind, documentId: id }, typed, ip);
      });
    } catch (error) {
      if (storedKey) await images.deleteImage(storedKey);
      throw error;
    }
    return { id };
  }

  return {
    /** For exports: the entry's weighbridge ticket number, in the caller's statement. */
    ticketNumberSql: repository.ticketNumberSql,
    /** For exports: the entry's ticket weights and its disc's GVM (issue 23). */
    ticketWeightsSql: repository.ticketWeightsSql,
    discGvmSql: repository.discGvmSql,
    saveLicenceDisc: (actor: Actor, body: LicenceDisc, ip?: string) =>
      save(
        actor,
        'discs',
        {
          image: body.discImage,
          captureId: body.discImageCaptureId,
          typed: body.corrections,
        },
        (tx, base) =>
          repository.insertLicenceDisc(tx, {
            ...base,
            licenceNumber: body.licenceNumber,
            discNumber: body.discNumber,
            vehicleRegisterNo: body.vehicleRegisterNo ?? body.vehRegisterNo,
            fields: fieldsOf(body, 'discImage'),
          }),
        ip,
      ),

    saveIdentityDocument: (actor: Actor, body: IdentityDocument, ip?: string) =>
      save(
        actor,
        'identity-documents',
        {
          image: body.sourceImageFront,
          captureId: body.sourceImageFrontCaptureId,
          typed: body.corrections,
        },
        async (tx, base) => {
          const number = await sealing.number(
            base.tenantId,
            'identity_documents.identity_number',
            SA_ID_NUMBER,
            body.identityNumber,
          );
          await repository.insertIdentityDocument(tx, {
            ...base,
            identityNumber: number.sealed,
            identityNumberHash: number.hash,
            fields: await sealing.fields(
              base.tenantId,
              'identity_documents',
              fieldsOf(body, 'sourceImageFront'),
            ),
          });
        },
        ip,
      ),

    saveDriversLicence: (actor: Actor, body: DriversLicence, ip?: string) =>
      save(
        actor,
        'drivers-licences',
        {
          image: body.sourceImageFront,
          captureId: body.sourceImageFrontCaptureId,
          typed: body.corrections,
        },
        async (tx, base) => {
          const number = await sealing.number(
            base.tenantId,
            'drivers_licences.id_number',
            SA_ID_NUMBER,
            body.idNumber,
          );
          await repository.insertDriversLicence(tx, {
            ...base,
            licenceNumber: body.licenceNumber,
            idNumber: number.sealed,
            idNumberHash: number.hash,
            fields: await sealing.fields(
              base.tenantId,
              'drivers_licences',
              fieldsOf(body, 'sourceImageFront'),
            ),
          });
        },
        ip,
      ),

    savePassport: (actor: Actor, body: Passport, ip?: string) =>
      save(
        actor,
        'passports',
        {
          image: body.passportImage,
          captureId: body.passportImageCaptureId,
          typed: body.corrections,
        },
        async (tx, base) => {
          const number = await sealing.number(
            base.tenantId,
            'passports.passport_number',
            PASSPORT_NUMBER,
            body.passportNumber,
          );
          await repository.insertPassport(tx, {
            ...base,
            passportNumber: number.sealed,
            passportNumberHash: number.hash,
            fields: await sealing.fields(
              base.tenantId,
              'passports',
              fieldsOf(body, 'passportImage'),
            ),
          });
        },
        ip,
      ),

    saveWeighbridgeTicket: (actor: Actor, body: WeighbridgeTicket, ip?: string) =>
      save(
        actor,
        'weighbridge-tickets',
        {
          image: body.ticketImage,
          captureId: body.ticketImageCaptureId,
          typed: body.corrections,
        },
        (tx, base) =>
          repository.insertWeighbridgeTicket(tx, {
            ...base,
            ticketNumber: body.ticketNumber,
            vehicleReg: body.vehicleReg,
            tareWeightKg: body.tareWeight === null ? null : Math.round(body.tareWeight),
            grossWeightKg: body.grossWeight === null ? null : Math.round(body.grossWeight),
            netWeightKg: body.netWeight === null ? null : Math.round(body.netWeight),
            weightsConsistent: areWeightsConsistent(body),
            fields: fieldsOf(body, 'ticketImage'),
          }),
        ip,
      ),

    /**
     * The newest tickets, each with the fields the guard typed or corrected before saving (issue
     * 15: what was read stays beside what was typed, by whom and when).
     */
    listWeighbridgeTickets: (actor: Actor, limit = 200) =>
      database.withTenant(actor.tenantId, async (tx) => {
        const tickets = await repository.listWeighbridgeTickets(tx, actor.tenantId, limit);
        const typed = await corrections.listForDocuments(
          tx,
          actor.tenantId,
          tickets.map((ticket) => ticket.id),
        );
        return tickets.map((ticket) => ({
          ticket,
          corrections: typed.filter((correction) => correction.documentId === ticket.id),
        }));
      }),
  };
}
