import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { ALL_ROLES, rolesAccess } from '@/platform/access';

import type { ImagesService } from './images.service';

const ImageParamsSchema = z.object({
  tenantId: z.uuid(),
  kind: z.string().regex(/^[a-z-]{1,40}$/),
  file: z.string().regex(/^[0-9a-f-]{36}\.jpg$/),
});

export function imagesRoutes(service: ImagesService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/images/:tenantId/:kind/:file',
      {
        config: rolesAccess(ALL_ROLES),
        schema: { tags: ['images'], operationId: 'getImage', params: ImageParamsSchema },
      },
      async (request, reply) => {
        const { tenantId, kind, file } = request.params;
        const bytes = await service.viewImage(
          request.actor,
          `${tenantId}/${kind}/${file}`,
          request.ip,
        );
        return reply
          .type('image/jpeg')
          .header('content-disposition', 'inline')
          .header('content-security-policy', 'sandbox')
          .header('cache-control', 'private, no-store')
          .send(bytes);
      },
    );
  };
}
