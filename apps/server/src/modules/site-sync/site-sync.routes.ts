import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { ApiErrorSchema } from '@boomgate/contracts/api-error';
import { IdSchema, NoContentSchema } from '@boomgate/contracts/primitives';
import {
  CreateSiteNodeTokenSchema,
  CreatedSiteNodeTokenSchema,
  SiteNodeTokenSchema,
  SITE_SYNC_EVENTS_BODY_LIMIT_BYTES,
  SITE_SYNC_REUSED_ISSUE_PREFIX,
  SiteSyncAckSchema,
  SiteSyncAcknowledgedSchema,
  SiteSyncChangesPageSchema,
  SiteSyncChangesQuerySchema,
  SiteSyncEventsBatchSchema,
  SiteSyncKeysRequestSchema,
  SiteSyncKeysSchema,
  SITE_SYNC_OBJECT_BODY_LIMIT_BYTES,
  SiteSyncObjectSchema,
  SiteSyncObjectStoredSchema,
  SiteSyncStatusSchema,
} from '@boomgate/contracts/site-sync';

import { ALL_ROLES, publicAccess, rolesAccess } from '@/platform/access';
import { AppError } from '@/platform/errors';
import { errorBody } from '@/platform/http';

import {
  type SiteNode,
  SiteSyncGapError,
  SiteSyncSeqReusedError,
  type SiteSyncService,
} from './site-sync.service';

const BEARER = /^Bearer ([A-Za-z0-9_-]{43})$/;
const tokenAdmins = rolesAccess(['super_admin', 'tenant_admin']);
const SiteParamsSchema = z.object({ id: IdSchema });
const TokenParamsSchema = z.object({ id: IdSchema, tokenId: IdSchema });
const StatusQuerySchema = z.object({ siteId: IdSchema.optional() });

const nodeOf = new WeakMap<FastifyRequest, SiteNode>();

function theNode(request: FastifyRequest): SiteNode {
  const node = nodeOf.get(request);
  if (!node) throw new AppError('UNAUTHENTICATED', 'A site token is required.');
  return node;
}

/**
 * Issue 28 (ADR 0009): site node tokens (tenant admins) and the two sync routes a site node
 * calls with its token. The sync routes take no user session and a token reaches nothing else:
 * every other route reads only the session cookie.
 */
export function siteSyncRoutes(
  service: SiteSyncService,
  { eventsBodyLimit = SITE_SYNC_EVENTS_BODY_LIMIT_BYTES }: { eventsBodyLimit?: number } = {},
): FastifyPluginAsyncZod {
  return async (app) => {
    /** The token before anything else (a bad query from a stranger is still a 401). */
    async function authenticateNode(request: FastifyRequest) {
      const token = BEARER.exec(request.headers.authorization ?? '')?.[1];
      const node = token ? await service.authenticate(token) : null;
      if (!node) throw new AppError('UNAUTHENTICATED', 'Unknown or revoked site token.');
      nodeOf.set(request, node);
    }

    app.post(
      '/sites/:id/node-tokens',
      {
        config: tokenAdmins,
        schema: {
          tags: ['site-sync'],
          operationId: 'createSiteNodeToken',
          description:
            'Creates a token a site node of this site syncs with (ADR 0009). The token is shown once; only its ' +
            "SHA-256 is stored. `centralPublicKey` is the tenant's Ed25519 key that signs every changes page: " +
            'the node pins it at enrolment.',
          params: SiteParamsSchema,
          body: CreateSiteNodeTokenSchema,
          response: { 201: CreatedSiteNodeTokenSchema },
        },
      },
      async (request, reply) =>
        reply
          .code(201)
          .send(
            await service.createToken(request.actor, request.params.id, request.body, request.ip),
          ),
    );

    app.get(
      '/sites/:id/node-tokens',
      {
        config: tokenAdmins,
        schema: {
          tags: ['site-sync'],
          operationId: 'listSiteNodeTokens',
          description: "The site's node tokens, revoked ones too, each with its node's last sync.",
          params: SiteParamsSchema,
          response: { 200: z.array(SiteNodeTokenSchema) },
        },
      },
      async (request) => service.listTokens(request.actor, request.params.id),
    );

    app.delete(
      '/sites/:id/node-tokens/:tokenId',
      {
        config: tokenAdmins,
        schema: {
          tags: ['site-sync'],
          operationId: 'revokeSiteNodeToken',
          description:
            'Revokes a node token: its node is refused (401) from its next request on. The token stays listed ' +
            'with `revokedAt`. Revoking a revoked token changes nothing.',
          params: TokenParamsSchema,
          response: { 204: NoContentSchema },
        },
      },
      async (request, reply) => {
        await service.revokeToken(
          request.actor,
          request.params.id,
          request.params.tokenId,
          request.ip,
        );
        return reply.code(204).send(null);
      },
    );

    app.get(
      '/site-sync/changes',
      {
        config: publicAccess(),
        preValidation: authenticateNode,
        schema: {
          tags: ['site-sync'],
          operationId: 'siteSyncChanges',
          description:
            'Down-sync (site node, `Authorization: Bearer <site token>`): the master data the site decides from ' +
            'changed after `since`, in version order, at most `limit` changes, signed with Ed25519 over the ' +
            'canonical JSON of the page without `signature`. Resume with `nextSince`; `nextSince < highWater` ' +
            'means more pages follow. A `since` ahead of central answers 409.',
          security: [{ siteToken: [] }],
          querystring: SiteSyncChangesQuerySchema,
          response: { 200: SiteSyncChangesPageSchema },
        },
      },
      async (request) => service.changes(theNode(request), request.query),
    );

    app.post(
      '/site-sync/events',
      {
        config: publicAccess(),
        // Captures carry their sealed objects (ADR 0009); the node keeps a batch well under this.
        bodyLimit: eventsBodyLimit,
        preValidation: authenticateNode,
        schema: {
          tags: ['site-sync'],
          operationId: 'siteSyncEvents',
          description:
            'Up-sync (site node, `Authorization: Bearer <site token>`): facts recorded at the site, each applied ' +
            'exactly once (by id). A batch whose first new seq of a stream skips one is refused with 409 and ' +
            'changes nothing; `issues` then names each stream as `acknowledged.<stream>` with the highest seq ' +
            'central holds as its message, so the node resends from the next one. A new fact under a seq ' +
            'central already holds for another fact (a node restored from an old backup) is never overwritten: ' +
            '409, and each such fact is named as `reused.<stream>` with its id as the message.',
          security: [{ siteToken: [] }],
          body: SiteSyncEventsBatchSchema,
          response: { 200: SiteSyncAckSchema, 409: ApiErrorSchema },
        },
      },
      async (request, reply) => {
        try {
          return await service.receiveEvents(theNode(request), request.body);
        } catch (error) {
          if (!(error instanceof SiteSyncGapError)) throw error;
          return reply.code(409).send(
            errorBody('CONFLICT', error.message, [
              ...Object.entries(error.acknowledged).map(([stream, seq]) => ({
                path: `acknowledged.${stream}`,
                message: String(seq),
              })),
              ...(error instanceof SiteSyncSeqReusedError ? error.reused : []).map((fact) => ({
                path: `${SITE_SYNC_REUSED_ISSUE_PREFIX}${fact.stream}`,
                message: fact.id,
              })),
            ]),
          );
        }
      },
    );

    app.post(
      '/site-sync/objects',
      {
        config: publicAccess(),
        bodyLimit: SITE_SYNC_OBJECT_BODY_LIMIT_BYTES,
        preValidation: authenticateNode,
        schema: {
          tags: ['site-sync'],
          operationId: 'siteSyncObject',
          description:
            'Up-sync (site node, `Authorization: Bearer <site token>`): one object an entry names (an image ' +
            "that is not a capture, or a cited document's), sealed as stored at the site, base64, sent on its " +
            "own before the entry's fact when the entry with its objects inline would not fit a batch; the " +
            'fact then names it in `objects_uploaded`. Idempotent on `key`: an object central already holds ' +
            'under it is kept (`stored: false`), unless the data key it is sealed with is erased (then this ' +
            "object replaces it). A key not of the token's tenant, a " +
            "capture's key or an object that is not sealed is a 400 (ADR 0009).",
          security: [{ siteToken: [] }],
          body: SiteSyncObjectSchema,
          response: { 200: SiteSyncObjectStoredSchema },
        },
      },
      async (request) => service.receiveObject(theNode(request), request.body),
    );

    app.get(
      '/site-sync/acknowledged',
      {
        config: publicAccess(),
        preValidation: authenticateNode,
        schema: {
          tags: ['site-sync'],
          operationId: 'siteSyncAcknowledged',
          description:
            'Up-sync (site node, `Authorization: Bearer <site token>`): the highest seq central holds for every ' +
            "stream of the token's site. The node asks at start and after a 409 and moves its own sequences past " +
            'these, so a node restored from an old backup never reuses a seq central holds (ADR 0009).',
          security: [{ siteToken: [] }],
          response: { 200: SiteSyncAcknowledgedSchema },
        },
      },
      async (request) => service.acknowledged(theNode(request)),
    );

    app.post(
      '/site-sync/keys',
      {
        config: publicAccess(),
        preValidation: authenticateNode,
        schema: {
          tags: ['site-sync'],
          operationId: 'siteSyncKeys',
          description:
            "The tenant's keys for the site node (`Authorization: Bearer <site token>`, ADR 0009): the active and " +
            'retiring data, index and audit keys, each wrapped with AES-256-GCM under a key agreed by X25519 ' +
            'between a fresh ephemeral key and `nodePublicKey` (HKDF-SHA256), never in clear. The node asks at ' +
            'every pull, so a rotation reaches it at the next sync; a delivery that changes what the node holds ' +
            '(`have`) is audited.',
          security: [{ siteToken: [] }],
          body: SiteSyncKeysRequestSchema,
          response: { 200: SiteSyncKeysSchema },
        },
      },
      async (request) => service.deliverKeys(theNode(request), request.body),
    );

    app.get(
      '/site-sync/status',
      {
        config: rolesAccess(ALL_ROLES),
        schema: {
          tags: ['site-sync'],
          operationId: 'siteSyncStatus',
          description:
            "Central's view (mode `central`): the last down- and up-sync of the tenant's site nodes (or of one " +
            "site's, `siteId`) from their tokens. Never offline here: only a site node decides alone.",
          querystring: StatusQuerySchema,
          response: { 200: SiteSyncStatusSchema },
        },
      },
      async (request) => service.status(request.actor, request.query.siteId),
    );
  };
}
