import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { publicAccess } from './access';

/** Where browsers send Content-Security-Policy violation reports (the CSP's `report-uri`). */
export const CSP_REPORT_PATH = '/api/csp-report';

// `report-uri` reports (application/csp-report) and Reporting API batches (application/reports+json).
const REPORT_MEDIA_TYPES = ['application/csp-report', 'application/reports+json'];
// A page load that breaks the policy repeats one violation; a few distinct ones say enough.
const MAX_REPORTS_PER_BODY = 5;

export type CspViolation = {
  /** The page's path: no query string or fragment, which could carry personal data. */
  page: string;
  directive: string;
  /** 'inline', 'eval', a scheme, or the blocked resource's origin and path. */
  blocked: string;
  sourceFile?: string;
  line?: number;
};

const text = (value: unknown) =>
  typeof value === 'string' ? value.slice(0, 200).replace(/\d[\d\s-]{4,}\d/g, '[redacted]') : '';

/** A URL cut to origin + path (or a keyword such as 'inline' kept as it is). */
function withoutQuery(value: unknown): string {
  const raw = text(value);
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:'
      ? `${url.origin}${url.pathname}`
      : url.protocol;
  } catch {
    return raw;
  }
}

function toViolation(report: Record<string, unknown>): CspViolation {
  // The two formats name the same things differently (kebab-case vs camelCase).
  const field = (kebab: string, camel: string) => report[kebab] ?? report[camel];
  const line = field('line-number', 'lineNumber');
  const pageUrl = withoutQuery(field('document-uri', 'documentURL'));
  return {
    page: pageUrl.replace(/^https?:\/\/[^/]+/, '') || pageUrl,
    directive: text(
      field('effective-directive', 'effectiveDirective') ?? report['violated-directive'],
    ),
    blocked: withoutQuery(field('blocked-uri', 'blockedURL')),
    ...(field('source-file', 'sourceFile')
      ? { sourceFile: withoutQuery(field('source-file', 'sourceFile')) }
      : {}),
    ...(typeof line === 'number' ? { line } : {}),
  };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The violations in a report body of either format; anything else yields none. */
export function violationsIn(body: unknown): CspViolation[] {
  if (isRecord(body) && isRecord(body['csp-report'])) return [toViolation(body['csp-report'])];
  if (!Array.isArray(body)) return [];
  const distinct = new Map<string, CspViolation>();
  for (const entry of body.slice(0, 100)) {
    if (!isRecord(entry) || entry['type'] !== 'csp-violation' || !isRecord(entry['body'])) continue;
    const violation = toViolation(entry['body']);
    distinct.set(JSON.stringify(violation), violation);
    if (distinct.size === MAX_REPORTS_PER_BODY) break;
  }
  return [...distinct.values()];
}

/**
 * SEC-37's report endpoint: violations are logged (event `csp.violation`) so an injected script or
 * a policy that breaks the app shows up in the logs. Public and cookie-free (browsers send reports
 * without credentials), so it only logs, at most 60 reports a minute per address.
 */
export const cspReportRoutes: FastifyPluginAsyncZod = async (api) => {
  // Encapsulated: only this route accepts the report media types; every other route still 415s.
  api.addContentTypeParser(REPORT_MEDIA_TYPES, { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, JSON.parse(typeof body === 'string' ? body : body.toString('utf8')));
    } catch {
      done(Object.assign(new Error('Invalid JSON'), { statusCode: 400 }), undefined);
    }
  });

  api.post(
    '/csp-report',
    {
      config: { ...publicAccess(), rateLimit: { max: 60, timeWindow: 60_000 } },
      bodyLimit: 16 * 1024,
      schema: {
        tags: ['system'],
        operationId: 'reportCspViolation',
        description:
          'Content-Security-Policy violation reports from browsers (application/csp-report or application/reports+json). Logged, never stored.',
        body: z.unknown(),
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      for (const violation of violationsIn(request.body)) {
        request.log.warn(
          { event: 'csp.violation', ...violation },
          'content security policy violation',
        );
      }
      return reply.code(204).send(null);
    },
  );
};
