import { describe, expect, it } from 'vitest';

import { ACTION_ROLES, type RoleAction } from '@boomgate/contracts/roles';

import { ACCESS_MATRIX } from './access-matrix';

/** The routes behind each action the web shows or hides by role. */
const ROUTES_BY_ACTION: Record<RoleAction, string[]> = {
  manageUsers: [
    'GET /api/users',
    'POST /api/users',
    'PATCH /api/users/:id',
    'PATCH /api/users/:id/deactivate',
    'PATCH /api/users/:id/reactivate',
  ],
  manageInductions: [
    'GET /api/safety-videos',
    'POST /api/safety-videos/files',
    'POST /api/safety-videos',
    'DELETE /api/safety-videos/:videoId',
    'GET /api/induction/assignments',
    'POST /api/induction/assignments',
    'DELETE /api/induction/assignments/:assignmentId',
  ],
  onboardDrivers: [
    'GET /api/onboarding/template.csv',
    'POST /api/onboarding/import/preview',
    'POST /api/onboarding/import',
    'POST /api/onboarding/drivers',
    'POST /api/onboarding/self',
    'GET /api/drivers',
    'GET /api/drivers/export.csv',
  ],
  manageIntegrations: [
    'GET /api/integrations',
    'PATCH /api/integrations',
    'POST /api/integrations/secret',
    'GET /api/integrations/deliveries',
    'GET /api/anpr/cameras',
    'POST /api/anpr/cameras',
    'PATCH /api/anpr/cameras/:id',
  ],
  viewSettings: [
    'GET /api/settings',
    'GET /api/settings/rules',
    'GET /api/watchlist',
    'GET /api/settings/override-pins',
  ],
  editSettings: [
    'PATCH /api/settings',
    'PATCH /api/settings/rules',
    'PATCH /api/settings/override-pins',
    'POST /api/watchlist',
    'PATCH /api/watchlist/:id',
    'DELETE /api/watchlist/:id',
  ],
  overrideEntries: ['POST /api/entry-logs/:id/override', 'POST /api/overrides/pins'],
  pinOverrideEntries: ['POST /api/entry-logs/:id/pin-override'],
  viewReports: [
    'GET /api/exports/entry-logs',
    'GET /api/exports/refusals',
    'GET /api/exports/weighbridge-tickets',
    'GET /api/exports/watchlist-hits',
    'GET /api/reports/summary',
  ],
  scheduleReports: ['GET /api/reports/schedule', 'PATCH /api/reports/schedule'],
  viewAuditLog: ['GET /api/audit-events', 'GET /api/audit-events/export'],
  viewAlerts: ['GET /api/alerts', 'POST /api/alerts/:id/acknowledge', 'GET /api/alerts/stream'],
  manageAlerts: [
    'GET /api/settings/alerts',
    'PATCH /api/settings/alerts',
    'GET /api/alerts/push-key',
    'POST /api/alerts/push-subscriptions',
    'DELETE /api/alerts/push-subscriptions',
  ],
};

describe('ACTION_ROLES (what the web shows to whom)', () => {
  it.each(Object.entries(ROUTES_BY_ACTION))(
    '%s names exactly the roles its routes allow',
    (action, routes) => {
      for (const route of routes) {
        const entry = ACCESS_MATRIX[route];
        expect(entry, route).toBeDefined();
        expect({ route, roles: [...(entry?.access ?? [])].sort() }).toEqual({
          route,
          roles: [...ACTION_ROLES[action as RoleAction]].sort(),
        });
      }
    },
  );
});
