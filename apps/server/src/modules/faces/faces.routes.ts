import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import {
  FaceComparisonRequestSchema,
  FaceComparisonResponseSchema,
} from '@boomgate/contracts/faces';

import { ALL_ROLES, rolesAccess } from '@/platform/access';
import { IMAGE_BODY_LIMIT_BYTES } from '@/platform/images';

import type { FacesService } from './faces.service';

export function facesRoutes(service: FacesService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/face-comparison',
      {
        config: rolesAccess(ALL_ROLES),
        bodyLimit: IMAGE_BODY_LIMIT_BYTES * 2,
        schema: {
          tags: ['faces'],
          operationId: 'compareFaces',
          description:
            'Compares the live face (image1) with a reference photo (image2) or the enrolled driver of an approved ' +
            'vehicle. matchScore is calibrated 0–100 (docs/vision/accuracy.md); 70 or more is a match. 422 when a ' +
            'photo has no face or more than one.',
          body: FaceComparisonRequestSchema,
          response: { 200: FaceComparisonResponseSchema },
        },
      },
      async (request) => service.compareFaces(request.actor, request.body, request.ip),
    );
  };
}
