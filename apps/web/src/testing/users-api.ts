import { http, HttpResponse } from 'msw';

import type { ApiError } from '@boomgate/contracts/api-error';
import {
  type CreateUserBody,
  type UpdateUserBody,
  type User,
  UserSchema,
} from '@boomgate/contracts/users';

import { apiError } from './handlers';

type Params = { id: string };

/**
 * An in-memory stand-in for the /api/users endpoints, so tests see the list change after a
 * mutation exactly as the app refetches it. `requests` records what the app sent.
 */
export function createUsersApi(initial: User[]) {
  let users = [...initial];
  const requests: { method: string; path: string; body: unknown }[] = [];

  const find = (id: string) => users.find((user) => user.id === id);
  const replace = (next: User) => {
    users = users.map((user) => (user.id === next.id ? next : user));
    return next;
  };
  const readBody = async (request: Request): Promise<unknown> => {
    const text = await request.text();
    return text ? (JSON.parse(text) as unknown) : undefined;
  };
  const setActive = (isActive: boolean) =>
    http.patch<Params, never, User | ApiError>(
      `/api/users/:id/${isActive ? 'reactivate' : 'deactivate'}`,
      async ({ request, params }) => {
        requests.push({
          method: 'PATCH',
          path: new URL(request.url).pathname,
          body: await readBody(request),
        });
        const user = find(params.id);
        if (!user) return apiError(404, 'NOT_FOUND', 'User not found.');
        return HttpResponse.json(replace({ ...user, isActive }));
      },
    );

  const handlers = [
    http.get<never, never, User[]>('/api/users', () => HttpResponse.json(users)),
    http.post<never, CreateUserBody, User | ApiError>('/api/users', async ({ request }) => {
      const body = await request.json();
      requests.push({ method: 'POST', path: '/api/users', body });
      if (users.some((user) => user.username === body.username)) {
        return apiError(409, 'CONFLICT', `Username ${body.username} is already taken.`);
      }
      const created = UserSchema.parse({
        id: crypto.randomUUID(),
        username: body.username,
        fullName: body.fullName ?? null,
        email: body.email ?? null,
        role: body.role,
        isActive: true,
      });
      users = [...users, created];
      return HttpResponse.json(created, { status: 201 });
    }),
    http.patch<Params, UpdateUserBody, User | ApiError>(
      '/api/users/:id',
      async ({ request, params }) => {
        const body = await request.json();
        requests.push({ method: 'PATCH', path: `/api/users/${params.id}`, body });
        const user = find(params.id);
        if (!user) return apiError(404, 'NOT_FOUND', 'User not found.');
        return HttpResponse.json(
          replace({
            ...user,
            fullName: body.fullName ?? user.fullName,
            email: body.email ?? user.email,
            role: body.role ?? user.role,
          }),
        );
      },
    ),
    setActive(false),
    setActive(true),
  ];

  return { handlers, requests, list: () => users };
}
