import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import { OcrRequestSchema, OcrResponseSchema } from '@boomgate/contracts/ocr';

import { ALL_ROLES, rolesAccess } from '@/platform/access';
import { IMAGE_BODY_LIMIT_BYTES } from '@/platform/images';

import type { VisionService } from './vision.service';

export function visionRoutes(service: VisionService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/ocr',
      {
        config: rolesAccess(ALL_ROLES),
        bodyLimit: IMAGE_BODY_LIMIT_BYTES,
        schema: {
          tags: ['vision'],
          operationId: 'readImage',
          description:
            'Reads a plate, licence disc, driving licence, ID document, passport or weighbridge ticket offline ' +
            '(barcodes and MRZ check digits first, then OCR), or checks a face capture. `ok: false` means the image ' +
            'was readable but nothing usable was found.',
          body: OcrRequestSchema,
          response: { 200: OcrResponseSchema },
        },
      },
      async (request) => service.readImage(request.actor, request.body, request.ip),
    );
  };
}
