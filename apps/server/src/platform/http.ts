import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';

import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import ipaddr from 'ipaddr.js';
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
} from 'fastify-type-provider-zod';

import type { ApiError, ErrorCode } from '@boomgate/contracts/api-error';

import { AppError, STATUS_BY_CODE, findPgError } from './errors';

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'INVALID',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'UNPROCESSABLE',
  429: 'RATE_LIMITED',
  503: 'UNAVAILABLE',
};

export function errorBody(
  code: ErrorCode,
  message: string,
  issues?: { path: string; message: string }[],
): ApiError {
  return { error: { code, message, ...(issues ? { issues } : {}) } };
}

export function sendError(reply: FastifyReply, error: AppError) {
  if (error.details.retryAfterSeconds !== undefined) {
    void reply.header('retry-after', String(error.details.retryAfterSeconds));
  }
  return reply.code(STATUS_BY_CODE[error.code]).send(errorBody(error.code, error.message));
}

// Postgres could not be reached or the pool was exhausted: the client may retry (503, not 500).
const UNAVAILABLE_PG_CODES = new Set([
  '57014', // statement_timeout: the query ran past its budget (REL-09)
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '08000',
  '08003',
  '08006',
]);
const UNAVAILABLE_NODE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE']);

// The pool's own words when the server went away or a connection could not be had in time.
const UNAVAILABLE_MESSAGE =
  /timeout exceeded when trying to connect|Connection terminated|connection is closed|Client has encountered a connection error/i;

/** Drizzle wraps driver errors (`cause`), and a failed connect may be an AggregateError. */
/** What a 503 for an unreachable database tells the client to wait (REL-06). */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

export function isDatabaseUnavailable(error: unknown): boolean {
  const pgCode = findPgError(error)?.code;
  if (pgCode) return UNAVAILABLE_PG_CODES.has(pgCode) || pgCode.startsWith('08');
  const seen = new Set<unknown>();
  const pending: unknown[] = [error];
  while (pending.length > 0 && seen.size < 10) {
    const current = pending.pop();
    if (!current || typeof current !== 'object' || seen.has(current)) continue;
    seen.add(current);
    const { code, message, cause, errors } = current as {
      code?: unknown;
      message?: unknown;
      cause?: unknown;
      errors?: unknown;
    };
    if (typeof code === 'string' && UNAVAILABLE_NODE_CODES.has(code)) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message)) return true;
    pending.push(cause, ...(Array.isArray(errors) ? (errors as unknown[]) : []));
  }
  return false;
}

// The multipart parser (busboy) rejects a broken body with a plain Error and no status; the
// client sent it, so it is a 400, not a 500 (found by the fuzz test).
const MALFORMED_MULTIPART =
  /^(Multipart: Boundary not found|Unexpected end of multipart data|.* terminated early due to unexpected end of multipart data|Malformed part header)$/;

function isMalformedMultipart(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error as { statusCode?: number }).statusCode === undefined &&
    MALFORMED_MULTIPART.test(error.message)
  );
}

/** One error format for every failure: `{ error: { code, message, issues? } }`, never a stack. */
/** A value PostgreSQL cannot store (or a NUL character, refused before any column sees it). */
export const UNSTORABLE_VALUE_MESSAGE =
  'The request contains a value that cannot be stored (for example a NUL character).';

/**
 * True when a parsed JSON body holds a NUL character in any string (key or value). PostgreSQL
 * refuses NUL in text and jsonb, but a sealed column (issue 26) stores ciphertext, so the
 * database no longer sees the NUL: the refusal happens at the edge, the same for every column.
 */
export function holdsNulCharacter(text: string): boolean {
  if (!/\\u0000/i.test(text)) return false; // the only way JSON writes a NUL
  let found = false;
  JSON.parse(text, (key, value: unknown) => {
    if (key.includes('\u0000') || (typeof value === 'string' && value.includes('\u0000')))
      found = true;
    return value;
  });
  return found;
}

export function handleError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof AppError) {
    if (error.cause !== undefined) {
      request.log.warn({ err: error.cause, code: error.code }, `refused: ${error.message}`);
    }
    return sendError(reply, error);
  }

  if (hasZodFastifySchemaValidationErrors(error)) {
    const issues = error.validation.map((issue) => ({
      path: issue.instancePath.replace(/^\//, '').replaceAll('/', '.'),
      message: issue.message ?? 'Invalid value',
    }));
    const first = issues[0];
    const message = first
      ? first.path
        ? `${first.message} (${first.path})`
        : first.message
      : 'Invalid request';
    return reply.code(400).send(errorBody('INVALID', message, issues));
  }

  if (isResponseSerializationError(error)) {
    request.log.error({ err: error }, 'response did not match its schema');
    return reply
      .code(500)
      .send(errorBody('INTERNAL', 'Something went wrong on our side. Please try again.'));
  }

  if (isDatabaseUnavailable(error)) {
    request.log.warn({ err: error }, 'database unavailable');
    return reply
      .code(503)
      .header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS))
      .send(
        errorBody(
          'UNAVAILABLE',
          'The service is temporarily unavailable. Please try again shortly.',
        ),
      );
  }

  // Class 22 (data exception): PostgreSQL refused a value the client sent, such as a NUL
  // character in text (22021) or a number out of range (22003); found by the fuzz test.
  if (findPgError(error)?.code?.startsWith('22')) {
    request.log.warn({ err: error }, 'value refused by the database');
    return reply.code(400).send(errorBody('INVALID', UNSTORABLE_VALUE_MESSAGE));
  }

  if (isMalformedMultipart(error)) {
    return reply
      .code(400)
      .send(errorBody('INVALID', 'The multipart/form-data body could not be read.'));
  }

  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    return reply
      .code(status)
      .send(errorBody(CODE_BY_STATUS[status] ?? 'INVALID', clientMessage(error, status)));
  }

  request.log.error({ err: error }, 'unhandled error');
  return reply
    .code(500)
    .send(errorBody('INTERNAL', 'Something went wrong on our side. Please try again.'));
}

/**
 * Errors Fastify raises while routing, before any hook runs (a malformed percent-encoding, a path
 * parameter over maxParamLength): the spec error format, and the headers helmet would have set.
 */
/**
 * The headers of answers the app writes before (or without) routing: router errors and the
 * HTTP parser's refusals. No page is served, so the CSP forbids everything.
 */
const BARE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'none'; base-uri 'none'; frame-ancestors 'none'; object-src 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'cache-control': 'no-store',
};

export function handleFrameworkError(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): void {
  const status = error.statusCode === 414 ? 414 : 400;
  void reply
    .code(status)
    .headers(BARE_SECURITY_HEADERS)
    .send(
      errorBody(
        'INVALID',
        status === 414 ? 'The address is too long.' : 'The address is not valid.',
      ),
    );
}

/**
 * Node's HTTP parser refused the request before Fastify saw it (headers over 16 KB: 431, a
 * request that never finished arriving: 408, anything unreadable: 400). Fastify's default
 * answer has neither the security headers nor the spec's error format; this one has both.
 */
export function handleClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'The request headers are too large.']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'The request took too long to arrive.']
        : [400, 'The request could not be read.'];
  const body = JSON.stringify(errorBody('INVALID', message));
  const headers = Object.entries({
    ...BARE_SECURITY_HEADERS,
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    connection: 'close',
  })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  if (socket.writable) {
    socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n${headers}\r\n${body}`);
  } else {
    socket.destroy();
  }
}

/** Fastify's own 4xx messages, reworded where they would confuse a person. */
function clientMessage(error: FastifyError, status: number): string {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Send the request body as JSON (Content-Type: application/json).';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'The request body is too large.';
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'The request body is not valid JSON.';
    default:
      return status === 404 ? 'Not found.' : error.message;
  }
}

/**
 * Cookie-authenticated JSON API: a state-changing request must come from our own pages. Fetch
 * Metadata first; browsers that do not send it are checked by Origin against the allowlist.
 */
export function registerCrossSiteRequestGuard(
  app: FastifyInstance,
  {
    allowedOrigins,
    isExempt,
  }: { allowedOrigins: readonly string[]; isExempt: (url: string) => boolean },
) {
  app.addHook('onRequest', async (request, reply) => {
    if (['GET', 'HEAD', 'OPTIONS'].includes(request.method) || isExempt(request.url)) return;
    const fetchSite = request.headers['sec-fetch-site'];
    if (fetchSite !== undefined) {
      if (fetchSite === 'same-origin' || fetchSite === 'none') return;
      return sendError(reply, new AppError('FORBIDDEN', 'Cross-site requests are not allowed.'));
    }
    const origin = request.headers.origin;
    if (origin === undefined) return; // not a browser: cookies are not sent cross-site without one
    const ownOrigin = `${request.protocol}://${request.host}`;
    if (origin === ownOrigin || allowedOrigins.includes(origin)) return;
    return sendError(reply, new AppError('FORBIDDEN', 'Cross-site requests are not allowed.'));
  });
}

/** A Host header's name: lower case, without the port or an IPv6 literal's brackets. */
export function hostnameOf(host: string): string {
  const value = host.trim().toLowerCase();
  if (value.startsWith('['))
    return value.slice(1, value.indexOf(']') > 0 ? value.indexOf(']') : undefined);
  const colon = value.lastIndexOf(':');
  return colon >= 0 ? value.slice(0, colon) : value;
}

/**
 * Whether a Host names this app: a name of PUBLIC_ORIGIN or ALLOWED_ORIGINS (any port), this
 * machine (localhost, *.localhost), or an IP address literal. An IP literal cannot be a DNS
 * rebinding (the attacker's page would have to be served from that very address), and a guard's
 * tablet on a site network often reaches the server by address; every other name is refused.
 */
export function isAllowedHost(host: string, allowedNames: ReadonlySet<string>): boolean {
  const name = hostnameOf(host).replace(/\.$/, '');
  if (name === '') return false;
  if (allowedNames.has(name)) return true;
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  return ipaddr.isValid(name) && !/^\d+$/.test(name);
}

/**
 * SEC-33 (Host allowlist): a request whose Host (X-Forwarded-Host behind a trusted proxy) is not
 * one of the app's own names is refused with 400 in the error format, before anything else reads
 * it: DNS rebinding, and links or redirects built from a forged Host, are stopped at the door.
 * The load balancer's health check (`/api/health`) answers whatever Host it sends.
 */
export function registerHostAllowlist(
  app: FastifyInstance,
  { origins, isExempt }: { origins: readonly string[]; isExempt: (url: string) => boolean },
) {
  const allowedNames = new Set(
    origins.flatMap((origin) => {
      try {
        return [new URL(origin).hostname.toLowerCase().replace(/^\[|\]$/g, '')];
      } catch {
        return [];
      }
    }),
  );
  app.addHook('onRequest', async (request, reply) => {
    if (isExempt(request.url) || isAllowedHost(request.host, allowedNames)) return;
    return sendError(reply, new AppError('INVALID', 'This server does not answer for that host.'));
  });
}
