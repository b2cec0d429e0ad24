import fastifyWebsocket from '@fastify/websocket';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { WebSocket } from 'ws';

import {
  GateAgentTokenSchema,
  GateBarrierStatusSchema,
  GateIdParamsSchema,
  GateOpenOutcomeSchema,
  OpenGateBodySchema,
} from '@boomgate/contracts/barriers';

import { publicAccess, rolesAccess } from '@/platform/access';
import { AppError } from '@/platform/errors';

import type { AgentIdentity } from './agent-hub';
import type { BarriersService } from './barriers.service';

const BEARER = /^Bearer ([A-Za-z0-9_-]{43})$/;
/** Agent frames are small JSON messages. */
const MAX_AGENT_FRAME_BYTES = 16 * 1024;

const agentOf = new WeakMap<FastifyRequest, AgentIdentity>();

/** Gate barriers: agent tokens, manual opening, barrier status, and the agents' WebSocket. */
export function barriersRoutes(service: BarriersService): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(fastifyWebsocket, { options: { maxPayload: MAX_AGENT_FRAME_BYTES } });
    app.addHook('onClose', async () => service.close());

    app.post(
      '/gates/:id/agent-token',
      {
        config: rolesAccess(['tenant_admin']),
        schema: {
          tags: ['barriers'],
          operationId: 'createGateAgentToken',
          description:
            "Creates or rotates the token the gate's site agent connects with (`npx boomgate-agent run --token …`). " +
            'Shown once; only its hash is stored. A new token disconnects the agent using the old one.',
          params: GateIdParamsSchema,
          response: { 201: GateAgentTokenSchema },
        },
      },
      async (request, reply) =>
        reply
          .code(201)
          .send(await service.createAgentToken(request.actor, request.params.id, request.ip)),
    );

    app.post(
      '/gates/:id/open',
      {
        config: rolesAccess(['tenant_admin', 'security_guard']),
        schema: {
          tags: ['barriers'],
          operationId: 'openGate',
          description:
            "Opens the gate's barrier by hand through its site agent, audited with the reason. `opened` is true " +
            'only when the device confirmed the opening; `offline` when no agent is connected.',
          params: GateIdParamsSchema,
          body: OpenGateBodySchema,
          response: { 200: GateOpenOutcomeSchema },
        },
      },
      async (request) =>
        service.openByHand(request.actor, request.params.id, request.body.reason, request.ip),
    );

    app.get(
      '/gates/:id/barrier',
      {
        config: rolesAccess(['tenant_admin', 'back_office', 'security_guard']),
        schema: {
          tags: ['barriers'],
          operationId: 'getGateBarrier',
          description:
            "Whether the gate's barrier agent is connected (online) and when it was last heard from.",
          params: GateIdParamsSchema,
          response: { 200: GateBarrierStatusSchema },
        },
      },
      async (request) => service.status(request.actor, request.params.id),
    );

    app.route({
      method: 'GET',
      url: '/agent/connect',
      config: publicAccess(),
      schema: {
        tags: ['barriers'],
        operationId: 'connectBarrierAgent',
        summary: "The site agent's connection (WebSocket)",
        description:
          'A site agent opens a WebSocket here with `Authorization: Bearer <gate agent token>` and keeps it ' +
          'open: the server sends `hello` and `open` commands, the agent sends `heartbeat` and `result` ' +
          'frames (packages/contracts/src/barriers.ts). A plain HTTP request is refused.',
        security: [],
      },
      // The token is checked before the upgrade: a refused agent gets a plain 401.
      async preValidation(request: FastifyRequest) {
        const token = BEARER.exec(request.headers.authorization ?? '')?.[1];
        const agent = token ? await service.authenticateAgent(token) : null;
        if (!agent) throw new AppError('UNAUTHENTICATED', 'Unknown or replaced agent token.');
        agentOf.set(request, agent);
      },
      handler: () => {
        throw new AppError('INVALID', 'Connect with a WebSocket upgrade.');
      },
      wsHandler: (socket: WebSocket, request: FastifyRequest) => {
        const agent = agentOf.get(request);
        if (!agent) return socket.close(4401, 'unauthenticated');
        service.hub.attach(agent, socket);
      },
    });
  };
}
