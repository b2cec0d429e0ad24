import type {
  Correction,
  CorrectionInputSchema,
  CorrectionKind,
} from '@boomgate/contracts/corrections';
import type { ReadingFieldValue } from '@boomgate/contracts/readings';
import type { z } from 'zod';

import type { AuditService } from '@/modules/audit';
import type { CapturesService } from '@/modules/captures';
import type { Actor } from '@/modules/sessions';
import type { SiteFacts } from '@/modules/site-node';
import type { Clock } from '@/platform/clock';
import type { DbExecutor } from '@/platform/db';
import { AppError } from '@/platform/errors';
import { newId } from '@/platform/ids';

import type { CorrectionsRepository } from './corrections.repository';
import type { ReadingCorrectionRow } from './corrections.table';

type CorrectionInput = z.output<typeof CorrectionInputSchema>;

/** The record a correction was saved with: an entry, or one document. */
export type CorrectionTarget =
  { entryLogId: string } | { documentType: string; documentId: string };

export type CorrectionsServiceDeps = {
  repository: CorrectionsRepository;
  captures: Pick<CapturesService, 'findReading'>;
  audit: Pick<AuditService, 'record'>;
  clock: Clock;
  siteFacts?: SiteFacts;
};

export type CorrectionsService = ReturnType<typeof createCorrectionsService>;

/** A read value as the guard sees it in a text box: lists joined, numbers as written. */
export function asTypedText(value: unknown): string {
  if (Array.isArray(value)) return value.map(asTypedText).join(', ');
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return value === null || value === undefined ? '' : JSON.stringify(value);
}

const sameText = (a: string, b: string) =>
  a.replace(/\s+/g, ' ').trim().toUpperCase() === b.replace(/\s+/g, ' ').trim().toUpperCase();

export function correctionKind(read: unknown, typed: string): CorrectionKind {
  if (read === null || read === undefined) return 'typed';
  return sameText(asTypedText(read), typed) ? 'confirmed' : 'corrected';
}

export function createCorrectionsService({
  repository,
  captures,
  audit,
  clock,
  siteFacts,
}: CorrectionsServiceDeps) {
  return {
    /**
     * Records what the guard typed for each field, in the saving record's transaction. The read
     * value comes from the capture the server holds: a capture of another type is a 400, an
     * unknown one (or another tenant's) a 404. One field twice in one save is a 400.
     */
    async record(
      tx: DbExecutor,
      actor: Actor,
      target: CorrectionTarget,
      inputs: readonly CorrectionInput[],
      ip?: string,
    ): Promise<number> {
      if (inputs.length === 0) return 0;
      const seen = new Set<string>();
      for (const input of inputs) {
        const key = `${input.captureId ?? ''}/${input.readingType}/${input.field}`;
        if (seen.has(key))
          throw new AppError('INVALID', `corrections: ${input.field} is corrected twice.`);
        seen.add(key);
      }
      const now = clock.now();
      const readings = new Map<string, Awaited<ReturnType<CapturesService['findReading']>>>();
      const rows = [];
      for (const input of inputs) {
        let read: ReadingFieldValue | undefined;
        let wasUncertain = false;
        if (input.captureId) {
          if (!readings.has(input.captureId))
            readings.set(
              input.captureId,
              await captures.findReading(tx, actor.tenantId, input.captureId),
            );
          const capture = readings.get(input.captureId);
          if (!capture) throw new AppError('NOT_FOUND', 'Capture not found or expired.');
          if (capture.type !== input.readingType)
            throw new AppError(
              'INVALID',
              `corrections: capture ${input.captureId} was read as ${capture.type}, not ${input.readingType}.`,
            );
          const fields = (capture.reading?.fields ?? {}) as Record<string, ReadingFieldValue>;
          read = fields[input.field];
          wasUncertain = capture.reading?.uncertain.includes(input.field) ?? false;
        }
        rows.push({
          tenantId: actor.tenantId,
          id: newId(),
          captureId: input.captureId,
          readingType: input.readingType,
          field: input.field,
          kind: correctionKind(read?.value, input.typedValue),
          readValue: read === undefined ? null : { value: read.value },
          readConfidence: read?.confidence ?? null,
          readSource: read?.source ?? null,
          wasUncertain,
          typedValue: input.typedValue,
          correctedBy: actor.userId,
          correctedByName: actor.fullName ?? actor.username,
          correctedAt: now,
          entryLogId: 'entryLogId' in target ? target.entryLogId : null,
          documentType: 'documentType' in target ? target.documentType : null,
          documentId: 'documentId' in target ? target.documentId : null,
        });
      }
      await repository.insert(tx, rows);
      // Issue 28 (site node): each correction goes to central.
      for (const row of rows)
        await siteFacts?.record(tx, {
          tenantId: actor.tenantId,
          gateId: null,
          kind: 'correction',
          recordedAt: now,
          rowId: row.id,
        });
      // Field names and what was done, never the values (they may be personal data).
      await audit.record(tx, {
        tenantId: actor.tenantId,
        actorUserId: actor.userId,
        action: 'reading.corrected',
        targetType: 'entryLogId' in target ? 'entry_log' : target.documentType,
        targetId: 'entryLogId' in target ? target.entryLogId : target.documentId,
        ip,
        details: {
          fields: rows.map((row) => ({
            readingType: row.readingType,
            field: row.field,
            kind: row.kind,
          })),
        },
      });
      return rows.length;
    },

    listFor: repository.listFor,
    listForDocuments: repository.listForDocuments,
  };
}

/** A stored correction as the API shows it (the entry detail, a ticket's provenance). */
export function toCorrection(correction: ReadingCorrectionRow): Correction {
  return {
    id: correction.id,
    captureId: correction.captureId,
    readingType: correction.readingType as Correction['readingType'],
    field: correction.field,
    kind: correction.kind,
    readValue: correction.readValue?.value ?? null,
    readConfidence: correction.readConfidence,
    readSource: correction.readSource,
    wasUncertain: correction.wasUncertain,
    typedValue: correction.typedValue,
    correctedBy: { id: correction.correctedBy, name: correction.correctedByName },
    correctedAt: correction.correctedAt.toISOString(),
    entryLogId: correction.entryLogId,
    documentType: correction.documentType,
    documentId: correction.documentId,
  };
}
