import type { TestApp } from './test-app';

/**
 * A site node's HTTP to central in tests, answered by a central test app itself (app.inject, no
 * socket), with the node's site token. Getters, because both are made in a test's beforeAll.
 */
export function centralFetch(central: () => TestApp, token: () => string): typeof fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input);
    const answer = await central().inject({
      method: init?.method === 'POST' ? 'POST' : 'GET',
      url: `${url.pathname}${url.search}`,
      headers: {
        authorization: `Bearer ${token()}`,
        ...(init?.body ? { 'content-type': 'application/json' } : {}),
      },
      ...(init?.body ? { payload: init.body as string } : {}),
    });
    return new Response(answer.body, {
      status: answer.statusCode,
      headers: { 'content-type': 'application/json' },
    });
  };
}
