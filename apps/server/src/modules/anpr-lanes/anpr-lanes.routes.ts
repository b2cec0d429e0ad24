import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import { AnprLaneReadBodySchema, AnprLaneReadResultSchema } from '@boomgate/contracts/anpr-lanes';

import { publicAccess } from '@/platform/access';
import { AppError } from '@/platform/errors';

import type { AnprLanesService } from './anpr-lanes.service';

/** The gate agent's token (packages/agent): 32 random bytes, base64url. */
const BEARER = /^Bearer ([A-Za-z0-9_-]{43})$/;

/** Automatic lanes: a fixed ANPR camera's reads, relayed by the gate's site agent. */
export function anprLanesRoutes(service: AnprLanesService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/anpr/reads',
      {
        // No session: the gate's agent token (Bearer) names the tenant and gate.
        config: publicAccess(),
        schema: {
          tags: ['anpr'],
          operationId: 'postAnprLaneRead',
          description:
            "A plate read on an automatic lane of the agent's gate (Bearer: the gate's agent token). " +
            'The server decides: an approved vehicle without a face step is granted, logged like any ' +
            'entry, and the barrier opens; an out-lane read records the exit and opens the out ' +
            'barrier. `barrier.opened` is true only when the device confirmed. A lane that is not ' +
            'automatic answers 409.',
          security: [{ agentToken: [] }],
          body: AnprLaneReadBodySchema,
          response: { 200: AnprLaneReadResultSchema },
        },
      },
      async (request) => {
        const token = BEARER.exec(request.headers.authorization ?? '')?.[1];
        const result = token ? await service.read(token, request.body, request.ip) : null;
        if (!result) throw new AppError('UNAUTHENTICATED', 'Unknown or replaced agent token.');
        return result;
      },
    );
  };
}
