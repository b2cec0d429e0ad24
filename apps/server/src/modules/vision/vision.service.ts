import type { OcrRequest, OcrResponse } from '@boomgate/contracts/ocr';
import type { Reading } from '@boomgate/contracts/readings';
import { isVisionInputError, toReading } from '@boomgate/vision';

import type { AuditService } from '@/modules/audit';
import type { CapturesService } from '@/modules/captures';
import type { Actor } from '@/modules/sessions';
import type { Database } from '@/platform/db';
import { AppError } from '@/platform/errors';
import { decodeImagePayload } from '@/platform/images';

import type { UserVisionEngine } from './vision-admission';

export type VisionServiceDeps = {
  engine: UserVisionEngine;
  database: Pick<Database, 'withTenant'>;
  audit: Pick<AuditService, 'record'>;
  captures: Pick<CapturesService, 'create'>;
};

export type VisionService = ReturnType<typeof createVisionService>;

const INPUT_ERROR_CODES = {
  empty: 'INVALID',
  unknown_type: 'INVALID',
  too_large: 'PAYLOAD_TOO_LARGE',
  too_many_pixels: 'PAYLOAD_TOO_LARGE',
  unsupported_image: 'UNSUPPORTED_MEDIA_TYPE',
} as const;

/**
 * Engine failures the caller can act on become 4xx (bad image) or 503 (busy); a bug in a reader
 * becomes a generic 500 and never takes the worker thread or the process down.
 */
export function toAppError(error: unknown): unknown {
  if (isVisionInputError(error)) {
    // The message is the person's; the library's detail (if any) reaches the log as the cause.
    return new AppError(INPUT_ERROR_CODES[error.kind], error.message, { cause: error });
  }
  const message = error instanceof Error ? error.message : '';
  if (/queue is at limit|aborted|timed? ?out/i.test(message)) {
    return new AppError('UNAVAILABLE', 'The image reader is busy. Please try again in a moment.');
  }
  return error;
}

type Read = Omit<OcrResponse, 'captureId' | 'reading'>;

export function createVisionService({ engine, database, audit, captures }: VisionServiceDeps) {
  /** Reads one image. The image was fine but nothing was found → `ok: false` with a reason. */
  async function read(
    actor: Actor,
    request: OcrRequest,
    ip?: string,
  ): Promise<{ reading: Reading | null; result: Read }> {
    const { bytes } = decodeImagePayload(request.image);
    const reader = engine.forUser(actor.userId);
    try {
      if (request.type === 'face') {
        const result = await reader.checkFaceQuality(bytes);
        if (!result.ok) {
          throw new AppError('UNPROCESSABLE', result.error.message, { cause: result.error });
        }
        const fields = {
          faceFound: result.quality.metrics.faceCount === 1,
          qualityOk: result.quality.ok,
          issues: result.quality.issues,
          ...(result.antispoof
            ? { antispoofReal: result.antispoof.real, antispoofLive: result.antispoof.live }
            : {}),
        };
        return {
          reading: null,
          result: {
            ok: result.quality.ok,
            type: 'face',
            extractedText: JSON.stringify(fields),
            text: result.quality.message,
            fields,
            source: 'face',
            confidence: result.quality.ok ? 1 : 0,
            ...(result.quality.ok ? {} : { message: result.quality.message }),
          },
        };
      }

      const result = await reader.read(request.type, bytes);
      if (isIdentityDocument(request.type)) {
        // Reading an identity document is processing personal information: leave a trace (POPIA).
        await database.withTenant(actor.tenantId, (tx) =>
          audit.record(tx, {
            tenantId: actor.tenantId,
            actorUserId: actor.userId,
            action: `vision.read.${request.type}`,
            ip,
          }),
        );
      }
      if (!result.ok) {
        return {
          reading: null,
          result: {
            ok: false,
            type: request.type,
            extractedText: '',
            text: result.text,
            fields: {},
            source: null,
            confidence: 0,
            message: result.error,
          },
        };
      }
      // The typed reading carries the one lookup and display form of the plate (contracts).
      const reading = toReading(result);
      const plateNumber = reading?.type === 'plate' ? reading.fields.plateNumber?.value : undefined;
      const displayPlate =
        reading?.type === 'plate' ? reading.fields.displayPlate?.value : undefined;
      const fields = {
        ...result.fields,
        ...(plateNumber ? { plateNumber } : {}),
        ...(displayPlate ? { displayPlate, extractedPlate: displayPlate } : {}),
      };
      return {
        reading,
        result: {
          ok: true,
          type: request.type,
          extractedText: JSON.stringify(fields),
          text: result.text,
          ...(plateNumber ? { plateNumber } : {}),
          ...(displayPlate ? { displayPlate } : {}),
          fields,
          source: result.source,
          confidence: result.confidence,
          ...(result.alternatives
            ? {
                alternatives: result.alternatives.map(({ value, confidence }) => ({
                  value,
                  confidence,
                })),
              }
            : {}),
          ...(result.warnings?.length ? { warnings: result.warnings } : {}),
          ...(result.partial ? { message: 'Some fields could not be read.' } : {}),
        },
      };
    } catch (error) {
      throw toAppError(error);
    }
  }

  return {
    /**
     * Reads one image and stores it once as a capture (issue 14) while it is read: the answer's
     * `captureId` is cited by the document, face and entry routes instead of the image.
     */
    async readImage(actor: Actor, request: OcrRequest, ip?: string): Promise<OcrResponse> {
      const { captureId, result } = await captures.create(actor, request, async () => {
        const { reading, result } = await read(actor, request, ip);
        return { reading, result: { ...result, reading } };
      });
      return { ...result, captureId };
    },
  };
}

const isIdentityDocument = (type: OcrRequest['type']) =>
  type === 'license' || type === 'id' || type === 'passport';
