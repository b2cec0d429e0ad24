import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import { EmptyBodySchema } from '@boomgate/contracts/primitives';
import {
  CreateUserBodySchema,
  UpdateUserBodySchema,
  type User,
  UserIdParamsSchema,
  UserListSchema,
  UserSchema,
} from '@boomgate/contracts/users';

import { rolesAccess } from '@/platform/access';

import type { UsersService } from './users.service';
import type { UserRow } from './users.table';

const userAdmins = rolesAccess(['super_admin', 'tenant_admin']);

export function usersRoutes(service: UsersService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/users',
      {
        config: userAdmins,
        schema: { tags: ['users'], operationId: 'listUsers', response: { 200: UserListSchema } },
      },
      async (request) => (await service.listUsers(request.actor)).map(toUser),
    );

    app.post(
      '/users',
      {
        config: userAdmins,
        schema: {
          tags: ['users'],
          operationId: 'createUser',
          body: CreateUserBodySchema,
          response: { 201: UserSchema },
        },
      },
      async (request, reply) => {
        const user = await service.createUser(request.actor, request.body, request.ip);
        return reply.code(201).send(toUser(user));
      },
    );

    app.patch(
      '/users/:id',
      {
        config: userAdmins,
        schema: {
          tags: ['users'],
          operationId: 'updateUser',
          params: UserIdParamsSchema,
          body: UpdateUserBodySchema,
          response: { 200: UserSchema },
        },
      },
      async (request) =>
        toUser(
          await service.updateUser(request.actor, request.params.id, request.body, request.ip),
        ),
    );

    app.patch(
      '/users/:id/deactivate',
      {
        config: userAdmins,
        schema: {
          tags: ['users'],
          operationId: 'deactivateUser',
          params: UserIdParamsSchema,
          body: EmptyBodySchema,
          response: { 200: UserSchema },
        },
      },
      async (request) =>
        toUser(await service.deactivateUser(request.actor, request.params.id, request.ip)),
    );

    app.patch(
      '/users/:id/reactivate',
      {
        config: userAdmins,
        schema: {
          tags: ['users'],
          operationId: 'reactivateUser',
          params: UserIdParamsSchema,
          body: EmptyBodySchema,
          response: { 200: UserSchema },
        },
      },
      async (request) =>
        toUser(await service.reactivateUser(request.actor, request.params.id, request.ip)),
    );
  };
}

/** The wire format: never the password hash or internal flags. */
export function toUser(row: UserRow & { siteIds?: string[] }): User {
  return {
    id: row.id,
    username: row.username,
    fullName: row.fullName,
    email: row.email,
    role: row.role,
    isActive: row.isActive,
    ...(row.siteIds && { siteIds: row.siteIds }),
  };
}
