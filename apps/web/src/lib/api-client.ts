import type { z } from 'zod';

import type { ApiError } from '@boomgate/contracts/api-error';

import { env } from '@/config/env';

import { translateServerError } from './i18n/server-errors';
import { ReauthCancelledError, waitForReauthentication } from './reauth';

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * A non-2xx response. The message follows spec §8: `${status}: ${body text or status text}`.
 * `body` holds the parsed `{ error: { code, message } }` envelope when the server sent one.
 */
export class HttpError extends Error {
  override readonly name = 'HttpError';

  constructor(
    readonly status: number,
    readonly statusText: string,
    readonly bodyText: string,
    readonly body: ApiError | undefined,
  ) {
    super(`${status}: ${bodyText || statusText}`);
  }

  static async from(response: Response): Promise<HttpError> {
    const bodyText = await response.text().catch(() => '');
    return new HttpError(
      response.status,
      response.statusText,
      bodyText,
      await parseApiError(bodyText),
    );
  }
}

async function parseApiError(bodyText: string): Promise<ApiError | undefined> {
  if (!bodyText) return undefined;
  try {
    const json: unknown = JSON.parse(bodyText);
    // The contract (zod) is loaded when an error first needs it, not with the app's first code.
    const { ApiErrorSchema } = await import('@boomgate/contracts/api-error');
    return ApiErrorSchema.safeParse(json).data;
  } catch {
    return undefined;
  }
}

export function isHttpError(error: unknown, status?: number): error is HttpError {
  return error instanceof HttpError && (status === undefined || error.status === status);
}

/**
 * The sentence to show in a failure toast: the server's readable message when the response
 * carried one (in the user's language, by its code), otherwise the caller's fallback (spec §8).
 */
export function getErrorMessage(error: unknown, fallback: string): string {
  if (error instanceof HttpError && error.body?.error.message) {
    // Issue 19: in another language the sentence comes from the catalogue, found by the code.
    return translateServerError(error.body.error.code, error.body.error.message);
  }
  if (error instanceof ReauthCancelledError) return error.message;
  return fallback;
}

type RequestOptions<S extends z.ZodType> = {
  schema: S;
  body?: unknown;
  query?: Record<string, string | undefined>;
  /** Extra request headers, e.g. `Idempotency-Key`. */
  headers?: Record<string, string>;
  signal?: AbortSignal;
};

/**
 * Every call to the API goes through here: cookies are always sent, a body (JSON, or multipart
 * for FormData) only when there is one, and every response is parsed with its contract so drift
 * fails loudly. A 401 throws like any other error; callers decide what "signed out" means. The
 * exception is 401 REAUTH_REQUIRED (SEC-25): the confirm-password dialog opens and, once the
 * password is confirmed, the request is sent once more; Cancel rejects it with ReauthCancelledError.
 */
export async function request<S extends z.ZodType>(
  method: Method,
  path: string,
  { schema, body, query, headers, signal }: RequestOptions<S>,
): Promise<z.infer<S>> {
  return (await requestWithHeaders(method, path, { schema, body, query, headers, signal })).data;
}

/**
 * `request`, also answering the response headers, for endpoints that send data there (a list's
 * next-page cursor and counts). Errors and contract parsing as in `request`.
 */
export async function requestWithHeaders<S extends z.ZodType>(
  method: Method,
  path: string,
  { schema, body, query, headers, signal }: RequestOptions<S>,
): Promise<{ data: z.infer<S>; headers: Headers }> {
  const url = new URL(`${env.API_ORIGIN}${path}`, window.location.origin);
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined) url.searchParams.set(key, value);
  }

  const response = await send(method, url, { body, headers, signal });

  const text = await response.text();
  const json: unknown = text ? JSON.parse(text) : null;
  return { data: schema.parse(json), headers: response.headers };
}

/**
 * Cookies always; FormData as multipart (the browser sets the boundary), anything else as JSON.
 * A 401 REAUTH_REQUIRED waits for the password to be confirmed, then is sent again, once.
 */
async function send(
  method: Method,
  url: URL,
  options: { body?: unknown; headers?: Record<string, string>; signal?: AbortSignal },
): Promise<Response> {
  try {
    return await sendOnce(method, url, options);
  } catch (error) {
    if (!isReauthRequired(error)) throw error;
    await waitForReauthentication();
    return sendOnce(method, url, options);
  }
}

function isReauthRequired(error: unknown): boolean {
  return isHttpError(error, 401) && error.body?.error.code === 'REAUTH_REQUIRED';
}

async function sendOnce(
  method: Method,
  url: URL,
  {
    body,
    headers,
    signal,
  }: { body?: unknown; headers?: Record<string, string>; signal?: AbortSignal },
): Promise<Response> {
  const hasBody = body !== undefined;
  const isForm = body instanceof FormData;
  const allHeaders = {
    ...(hasBody && !isForm ? { 'content-type': 'application/json' } : {}),
    ...headers,
  };
  const response = await fetch(url, {
    method,
    signal,
    credentials: 'include',
    headers: Object.keys(allHeaders).length > 0 ? allHeaders : undefined,
    body: isForm ? body : hasBody ? JSON.stringify(body) : undefined,
  });
  if (!response.ok) throw await HttpError.from(response);
  return response;
}

/**
 * POST /api/auth/reauth for the confirm-password dialog: sent without the REAUTH_REQUIRED retry
 * (the dialog is what answers it). Resolves when the server issued the new session cookie.
 */
export async function reauthenticate(password: string): Promise<void> {
  const url = new URL(`${env.API_ORIGIN}/api/auth/reauth`, window.location.origin);
  await sendOnce('POST', url, { body: { password } });
}

/** A file the API answers (e.g. a CSV report), as a Blob; errors as in `request`. */
export async function requestBlob(
  method: Method,
  path: string,
  { body, signal }: { body?: unknown; signal?: AbortSignal } = {},
): Promise<Blob> {
  const url = new URL(`${env.API_ORIGIN}${path}`, window.location.origin);
  return (await send(method, url, { body, signal })).blob();
}

/** How far a download has come: bytes received, and the response's headers (e.g. a row count). */
export type DownloadProgress = { bytes: number; headers: Headers; chunk: Uint8Array };

/**
 * A large file the API streams (an export): read chunk by chunk so the screen can show progress,
 * then handed over as one Blob. Errors, and a 401 REAUTH_REQUIRED, as in `requestBlob`.
 */
export async function requestDownload(
  path: string,
  {
    onProgress,
    signal,
  }: { onProgress?: (progress: DownloadProgress) => void; signal?: AbortSignal } = {},
): Promise<Blob> {
  const url = new URL(`${env.API_ORIGIN}${path}`, window.location.origin);
  const response = await send('GET', url, { signal });
  const type = response.headers.get('content-type') ?? '';
  if (!response.body) return response.blob();
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    bytes += value.byteLength;
    onProgress?.({ bytes, headers: response.headers, chunk: value });
  }
  return new Blob(chunks as BlobPart[], { type });
}

/** An API path as a URL the browser can load, e.g. an `/api/images/…` image for an <img>. */
export function apiUrl(path: string): string {
  return `${env.API_ORIGIN}${path}`;
}
