import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';

import { DEFAULT_ALERT_SETTINGS } from '@boomgate/contracts/alerts';
import { DEFAULT_RULE_SETTING, DOCUMENT_RULE_CODES } from '@boomgate/contracts/document-rules';

import { aReportSummary } from './data';
import { apiError, signedOut } from './handlers';

/**
 * The default world: nobody is signed in, the organization has no safety videos or assignments,
 * no driver has a safety induction (the gate screens ask whenever they know an ID number), and
 * the alert routing is the default (Settings shows it to admins). Tests add handlers with server.use().
 */
export const server = setupServer(
  signedOut(),
  http.get('/api/induction/status', () =>
    HttpResponse.json({ status: 'none', passedAt: null, validUntil: null }),
  ),
  http.get('/api/safety-videos', () => HttpResponse.json([])),
  // Issue 16: one site (the default) is the same as none for the site pickers.
  http.get('/api/sites', () => HttpResponse.json([])),
  // Issue 28: no site node tokens (the Sites screen lists them per site).
  http.get('/api/sites/:id/node-tokens', () => HttpResponse.json([])),
  http.get('/api/induction/assignments', () => HttpResponse.json([])),
  http.get('/api/induction/assignment/:id', () =>
    apiError(404, 'NOT_FOUND', 'Assignment not found.'),
  ),
  http.get('/api/settings/alerts', () => HttpResponse.json(DEFAULT_ALERT_SETTINGS)),
  // Issue 21: every document rule at its default (Settings shows them).
  http.get('/api/settings/rules', () =>
    HttpResponse.json({
      rules: Object.fromEntries(DOCUMENT_RULE_CODES.map((code) => [code, DEFAULT_RULE_SETTING])),
    }),
  ),
  // Issue 28: a central instance (no site-node banner).
  http.get('/api/site-sync/status', () =>
    HttpResponse.json({
      mode: 'central',
      lastDownSyncAt: null,
      lastUpSyncAt: null,
      oldestUnacknowledgedAt: null,
      offline: false,
    }),
  ),
  // Issue 23: an empty report for the days asked (the dashboard's arrivals, the reports screen).
  http.get('/api/reports/summary', ({ request }) => {
    const params = new URL(request.url).searchParams;
    return HttpResponse.json(aReportSummary(params.get('from') ?? '', params.get('to') ?? ''));
  }),
  // Issue 23: no scheduled report e-mail.
  http.get('/api/reports/schedule', () =>
    HttpResponse.json({
      frequency: 'off',
      format: 'xlsx',
      recipients: [],
      siteId: null,
      nextSendAt: null,
    }),
  ),
);
