import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import {
  KeyStatusSchema,
  RotateKeysBodySchema,
  RotateKeysResponseSchema,
} from '@boomgate/contracts/keys';

import type { Actor } from '@/modules/sessions';
import { rolesAccess } from '@/platform/access';
import { AppError } from '@/platform/errors';

import type { KeysService } from './keys.service';

const ADMINS = ['super_admin', 'tenant_admin'] as const;

/**
 * Whose key: a tenant_admin's own organization (naming another is answered as an unknown one,
 * 404); a super_admin's own, or the one it names in `tenantId`.
 */
function targetTenant(actor: Actor, tenantId: string | undefined): string {
  if (!tenantId || tenantId === actor.tenantId) return actor.tenantId;
  if (actor.role !== 'super_admin') throw new AppError('NOT_FOUND', 'Organization not found.');
  return tenantId;
}

/** Issue 26: starting a tenant's data-key rotation and watching it (the CLI's rotate-data-key too). */
export function keysRoutes(service: KeysService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/keys/rotate',
      {
        // A privileged act on every sealed value of the organization: the password given recently.
        config: rolesAccess(ADMINS, { recentAuthentication: true }),
        schema: {
          tags: ['keys'],
          operationId: 'rotateDataKey',
          description:
            'Starts a rotation of the organization’s data key: a new key seals from now on, and the keys.reseal job re-seals what the old key sealed (rows and stored objects) and then erases it. Entries keep being written and read throughout. A tenant_admin rotates its own organization’s key; a super_admin may name another in `tenantId`. 409 while a rotation is still running. Audited (keys.data_key_rotated).',
          body: RotateKeysBodySchema,
          response: { 202: RotateKeysResponseSchema },
        },
      },
      async (request, reply) => {
        const tenantId = targetTenant(request.actor, request.body.tenantId);
        const started = await service.startRotation(tenantId, {
          actorUserId: request.actor.userId,
          ip: request.ip,
          homeTenantId: request.actor.tenantId,
        });
        return reply.code(202).send({
          tenantId: started.tenantId,
          version: started.version,
          rotatedAt: started.rotatedAt.toISOString(),
          job: { id: started.jobId, name: 'keys.reseal', state: 'queued' },
        });
      },
    );

    app.get(
      '/keys/status',
      {
        config: rolesAccess(ADMINS),
        schema: {
          tags: ['keys'],
          operationId: 'getKeyStatus',
          description:
            'The organization’s keys (purpose, version, state; never key material), its last data-key rotation and, while one runs, how many rows per table and stored objects are still sealed with an old version.',
          response: { 200: KeyStatusSchema },
        },
      },
      async (request) => {
        const status = await service.status(request.actor.tenantId);
        return {
          ...status,
          keys: status.keys.map((key) => ({
            ...key,
            createdAt: key.createdAt.toISOString(),
            retiredAt: key.retiredAt?.toISOString() ?? null,
          })),
          lastRotation: status.lastRotation && {
            version: status.lastRotation.version,
            startedAt: status.lastRotation.startedAt.toISOString(),
            finishedAt: status.lastRotation.finishedAt?.toISOString() ?? null,
          },
        };
      },
    );
  };
}
