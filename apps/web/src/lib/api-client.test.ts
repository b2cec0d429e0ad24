import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';

import { apiError } from '@/testing/handlers';
import { server } from '@/testing/server';

import { getErrorMessage, HttpError, request, requestWithHeaders } from './api-client';
import {
  cancelReauthentication,
  completeReauthentication,
  isReauthenticationPending,
} from './reauth';

const OkSchema = z.object({ ok: z.literal(true) });

describe('request', () => {
  it('throws an error whose message is the status, a colon and the response body', async () => {
    server.use(http.get('/api/things', () => apiError(409, 'CONFLICT', 'Plate is taken.')));

    const error = await request('GET', '/api/things', { schema: OkSchema }).catch(
      (e: unknown) => e,
    );

    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).message).toBe(
      '409: {"error":{"code":"CONFLICT","message":"Plate is taken."}}',
    );
  });

  it('uses the status text when the error body is empty', async () => {
    server.use(
      http.get(
        '/api/things',
        () => new HttpResponse(null, { status: 503, statusText: 'Service Unavailable' }),
      ),
    );

    await expect(request('GET', '/api/things', { schema: OkSchema })).rejects.toThrow(
      '503: Service Unavailable',
    );
  });

  it('throws on 401 instead of redirecting', async () => {
    window.history.replaceState(null, '', '/users');
    server.use(http.get('/api/things', () => apiError(401, 'UNAUTHENTICATED', 'Sign in.')));

    const error = await request('GET', '/api/things', { schema: OkSchema }).catch(
      (e: unknown) => e,
    );

    expect(error).toMatchObject({ status: 401 });
    expect(window.location.pathname).toBe('/users');
  });

  it('sends cookies on every request and JSON only when there is a body', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    server.use(
      http.post('/api/things', () => HttpResponse.json({ ok: true })),
      http.patch('/api/things/1/deactivate', () => HttpResponse.json({ ok: true })),
    );

    await request('POST', '/api/things', { schema: OkSchema, body: { name: 'gate 1' } });
    await request('PATCH', '/api/things/1/deactivate', { schema: OkSchema });

    const [withBody, withoutBody] = fetchSpy.mock.calls.map(([, init]) => init);
    expect(withBody).toMatchObject({
      credentials: 'include',
      headers: { 'content-type': 'application/json' },
      body: '{"name":"gate 1"}',
    });
    expect(withoutBody).toMatchObject({
      credentials: 'include',
      body: undefined,
      headers: undefined,
    });
  });

  it('rejects a response that does not match the contract', async () => {
    server.use(http.get('/api/things', () => HttpResponse.json({ ok: 'yes' })));

    await expect(request('GET', '/api/things', { schema: OkSchema })).rejects.toThrow(z.ZodError);
  });
});

describe('requestWithHeaders', () => {
  it('answers the parsed body with the response headers and sends the query', async () => {
    let url: URL | undefined;
    server.use(
      http.get('/api/things', ({ request: sent }) => {
        url = new URL(sent.url);
        return HttpResponse.json({ ok: true }, { headers: { 'x-next-cursor': 'abc' } });
      }),
    );

    const { data, headers } = await requestWithHeaders('GET', '/api/things', {
      schema: OkSchema,
      query: { limit: '100', cursor: undefined },
    });

    expect(data).toEqual({ ok: true });
    expect(headers.get('x-next-cursor')).toBe('abc');
    expect(url?.searchParams.get('limit')).toBe('100');
    expect(url?.searchParams.has('cursor')).toBe(false);
  });

  it('throws like request on an error status and on contract drift', async () => {
    server.use(http.get('/api/things', () => apiError(409, 'CONFLICT', 'Plate is taken.')));
    await expect(requestWithHeaders('GET', '/api/things', { schema: OkSchema })).rejects.toThrow(
      '409: {"error":{"code":"CONFLICT","message":"Plate is taken."}}',
    );

    server.use(http.get('/api/things', () => HttpResponse.json({ ok: 'yes' })));
    await expect(requestWithHeaders('GET', '/api/things', { schema: OkSchema })).rejects.toThrow(
      z.ZodError,
    );
  });
});

describe('getErrorMessage', () => {
  it("returns the server's readable message", async () => {
    server.use(http.get('/api/things', () => apiError(400, 'INVALID', 'Username is taken.')));
    const error = await request('GET', '/api/things', { schema: OkSchema }).catch(
      (e: unknown) => e,
    );

    expect(getErrorMessage(error, 'Failed to create user')).toBe('Username is taken.');
  });

  it('falls back when the body is not the error envelope', async () => {
    server.use(http.get('/api/things', () => new HttpResponse('Bad gateway', { status: 502 })));
    const error = await request('GET', '/api/things', { schema: OkSchema }).catch(
      (e: unknown) => e,
    );

    expect(getErrorMessage(error, 'Failed to create user')).toBe('Failed to create user');
  });

  it('falls back for network failures', () => {
    expect(getErrorMessage(new TypeError('Failed to fetch'), 'Fallback')).toBe('Fallback');
  });
});

describe('request answered 401 REAUTH_REQUIRED (SEC-25)', () => {
  const reauthRequired = () =>
    apiError(401, 'REAUTH_REQUIRED', 'Confirm your password to continue.');
  it('waits for the password, then sends the request once more', async () => {
    let calls = 0;
    server.use(
      http.get('/api/things', () =>
        ++calls === 1 ? reauthRequired() : HttpResponse.json({ ok: true }),
      ),
    );

    const pending = request('GET', '/api/things', { schema: OkSchema });
    await vi.waitFor(() => expect(calls).toBe(1));
    completeReauthentication();

    await expect(pending).resolves.toEqual({ ok: true });
    expect(calls).toBe(2);
  });

  it('asks once for requests refused together, and retries each of them', async () => {
    const seen: string[] = [];
    let isConfirmed = false;
    server.use(
      http.get('/api/things/:id', ({ params }) => {
        seen.push(String(params.id));
        return isConfirmed ? HttpResponse.json({ ok: true }) : reauthRequired();
      }),
    );

    const first = request('GET', '/api/things/1', { schema: OkSchema });
    const second = request('GET', '/api/things/2', { schema: OkSchema });
    await vi.waitFor(() => expect(seen).toHaveLength(2));
    isConfirmed = true;
    completeReauthentication(); // one confirmation releases both

    await expect(Promise.all([first, second])).resolves.toEqual([{ ok: true }, { ok: true }]);
    expect(isReauthenticationPending()).toBe(false);
    expect(seen.sort()).toEqual(['1', '1', '2', '2']);
  });

  it('rejects the request with a clear error when the password is not confirmed', async () => {
    let calls = 0;
    server.use(
      http.get('/api/things', () => {
        calls++;
        return reauthRequired();
      }),
    );

    const pending = request('GET', '/api/things', { schema: OkSchema }).catch((e: unknown) => e);
    await vi.waitFor(() => expect(calls).toBe(1));
    cancelReauthentication();
    const error = await pending;

    expect(error).toMatchObject({ name: 'ReauthCancelledError' });
    expect(getErrorMessage(error, 'Fallback')).toBe(
      'Password not confirmed: the request was cancelled.',
    );
    expect(calls).toBe(1);
  });

  it('retries only once: a second refusal is the error', async () => {
    let calls = 0;
    server.use(
      http.get('/api/things', () => {
        calls++;
        return reauthRequired();
      }),
    );

    const pending = request('GET', '/api/things', { schema: OkSchema }).catch((e: unknown) => e);
    await vi.waitFor(() => expect(calls).toBe(1));
    completeReauthentication();

    expect(await pending).toMatchObject({
      status: 401,
      body: { error: { code: 'REAUTH_REQUIRED' } },
    });
    expect(calls).toBe(2);
    expect(isReauthenticationPending()).toBe(false);
  });

  it('leaves an ordinary 401 alone: it fails straight away and asks for no password', async () => {
    server.use(http.get('/api/things', () => apiError(401, 'UNAUTHENTICATED', 'Sign in.')));

    const error = await request('GET', '/api/things', { schema: OkSchema }).catch(
      (e: unknown) => e,
    );

    expect(error).toMatchObject({ status: 401, body: { error: { code: 'UNAUTHENTICATED' } } });
    expect(isReauthenticationPending()).toBe(false);
  });
});
