/**
 * SEC-13/14/16: the authorization matrix as data. access-matrix.int.test.ts walks every API route
 * registered on the app and, for each entry here, calls it as every role (and signed out) on an
 * object of the caller's own tenant, of another tenant and that does not exist, and checks:
 *
 *   signed out                      → 401 (public routes: as an allowed caller)
 *   role not in `access`            → 403, and no table changes
 *   allowed role, own object        → `allowed`
 *   allowed role, other tenant's    → `missing` (404), no table changes, and the same status and
 *                                     body as an id that does not exist
 *
 * How to add a route:
 *   1. Add an entry keyed `'METHOD /api/path/:param'` exactly as registered (the suite lists every
 *      route without an entry, and every entry without a route).
 *   2. `access`: the roles the route declares (`'public'` for publicAccess()); the suite checks
 *      that it matches the declaration, so a change of roles is a change of this file too.
 *   3. `request` builds a valid call; routes on one object also give `object`, which makes a fresh
 *      object in the given tenant and returns the value that goes in the path or body.
 *   4. `allowed`: the status an allowed caller gets on its own object. Use a request that is refused
 *      after the access check (415 for a non-image) when success would run slow inference.
 *   5. `caller: 'fresh'` for routes that end the caller's session (logout, password change, reauth).
 */
import { randomBytes, randomInt, randomUUID } from 'node:crypto';

import type { LightMyRequestResponse } from 'fastify';

import type { Role } from '@boomgate/contracts/roles';
import { passesLuhn } from '@boomgate/contracts/sa-id-number';

import type { Actor } from '@/modules/sessions';
import { nodeKeyPair } from '@/modules/site-sync';
import { createSitesRepository } from '@/modules/sites';
import type { Session, TestApp } from '@/testing/test-app';
import { anMp4 } from '@/testing/videos';
import { createSoftwareAuthenticator } from '@/testing/webauthn';
import { signedHeaders } from '@/testing/webhooks';

export type Caller = Role | 'anonymous';
export type ObjectCase = 'own' | 'other' | 'random';

export type MatrixTenant = { id: string; admin: Session };

export type MatrixFixtures = {
  t: TestApp;
  own: MatrixTenant;
  other: MatrixTenant;
  /** A small real JPEG data URL. */
  jpeg: string;
  /** A user of the own tenant that only signs in (the login route's subject). */
  loginUser: { username: string; password: string };
  /** Creates (or rotates) the tenant's integration secret and remembers it. */
  freshSecret(tenant: MatrixTenant): Promise<string>;
  secrets: Map<string, string>;
  /** Sends an entry into the tenant's incoming feed, signed with a fresh secret; its id. */
  incomingEntry(tenant: MatrixTenant): Promise<string>;
  unique(prefix: string): string;
};

export type MatrixRequest = {
  url: string;
  payload?: Record<string, unknown> | string;
  headers?: Record<string, string>;
};

export type MatrixEntry = {
  access: 'public' | readonly Role[];
  /** Routes on one object: makes a fresh one in `tenant`; returns the value the request uses. */
  object?: (fx: MatrixFixtures, tenant: MatrixTenant) => Promise<string>;
  /** A value naming no object at all; default a random UUID. */
  randomObject?: () => string;
  /** Which object cases apply (default all three). */
  objects?: readonly ObjectCase[];
  request: (
    fx: MatrixFixtures,
    object: string | undefined,
    caller: { password: string },
  ) => MatrixRequest | Promise<MatrixRequest>;
  allowed: number;
  /** A different status for some allowed roles on their own object (e.g. a guard's proposal). */
  allowedFor?: Partial<Record<Role, number>>;
  /** Status for another tenant's object and for one that does not exist (default 404). */
  missing?: number;
  caller?: 'fresh';
  /**
   * Tables an allowed GET writes besides the audit trail, with the reason in `note` (a site
   * node's pull records its last sync time on its token).
   */
  readWrites?: readonly string[];
  note?: string;
};

const ADMINS = ['super_admin', 'tenant_admin'] as const;
const ALL = ['super_admin', 'tenant_admin', 'back_office', 'security_guard'] as const;

const plate = (fx: MatrixFixtures) => fx.unique('MX').toUpperCase().slice(0, 10);

async function expectStatus(response: LightMyRequestResponse, status: number, what: string) {
  if (response.statusCode !== status) {
    throw new Error(`fixture ${what}: ${response.statusCode} ${response.body}`);
  }
  return response;
}

/** Turns supervisor PINs on in `tenant` and issues one as its admin; the PIN. */
async function anOverridePin(tenant: MatrixTenant) {
  await expectStatus(
    await tenant.admin.patch('/api/settings/override-pins', { enabled: true }),
    200,
    'override pins on',
  );
  const issued = await tenant.admin.post('/api/overrides/pins', {});
  return (await expectStatus(issued, 201, 'override pin')).json<{ pin: string }>().pin;
}

/** A driver registered in `tenant`; the ID number names them in data-subject requests. */
/** An address on the tenant's scheduled report e-mail (a data subject by e-mail address). */
async function aReportRecipient(fx: MatrixFixtures, tenant: MatrixTenant) {
  const email = `${fx.unique('recipient')}@example.com`.toLowerCase();
  const response = await tenant.admin.patch('/api/reports/schedule', {
    frequency: 'daily',
    recipients: [email],
  });
  await expectStatus(response, 200, 'report recipient');
  return email;
}

async function aDataSubject(_fx: MatrixFixtures, tenant: MatrixTenant) {
  const idNumber = aSaIdNumber();
  const response = await tenant.admin.post('/api/onboarding/drivers', {
    name: 'Matrix',
    surname: 'Subject',
    idNumber,
  });
  await expectStatus(response, 201, 'data subject');
  return idNumber;
}

async function aVehicle(fx: MatrixFixtures, tenant: MatrixTenant) {
  const response = await tenant.admin.post('/api/approved-vehicles', {
    plateNumber: plate(fx),
    driverName: 'Matrix Driver',
  });
  await expectStatus(response, 201, 'vehicle');
  return response.json<{ id: string; plateNumber: string }>();
}

/** A watchlist entry (issue 21) of `tenant`: an alert, so no gate path in the suite is refused. */
async function aWatchlistEntry(fx: MatrixFixtures, tenant: MatrixTenant) {
  const created = await tenant.admin.post('/api/watchlist', {
    kind: 'plate',
    value: plate(fx),
    reason: 'Matrix',
    severity: 'alert',
  });
  return (await expectStatus(created, 201, 'watchlist entry')).json<{ id: string }>().id;
}

const guards = new Map<string, Promise<Session>>();

/** A vehicle whose deletion a security guard of the tenant has proposed (separation of duties). */
async function aDeletionProposal(fx: MatrixFixtures, tenant: MatrixTenant) {
  const vehicle = await aVehicle(fx, tenant);
  let guard = guards.get(tenant.id);
  if (!guard) {
    guard = fx.t.createSignedInUser(tenant.admin, 'security_guard');
    guards.set(tenant.id, guard);
  }
  const response = await (await guard).delete(`/api/approved-vehicles/${vehicle.id}`);
  await expectStatus(response, 202, 'deletion proposal');
  return vehicle;
}

/** A capture (issue 14) in `tenant`, made as POST /api/ocr would, without running the engine. */
async function aCapture(fx: MatrixFixtures, tenant: MatrixTenant) {
  const { captureId } = await fx.t.modules.captures.service.create(
    { tenantId: tenant.id, userId: tenant.admin.body.user.id } as Actor,
    { image: fx.jpeg, type: 'plate' },
    async () => ({ reading: null, result: null }),
  );
  return captureId;
}

/** A refused entry logged in `tenant` (issue 15: the entry detail's subject). */
async function anEntry(fx: MatrixFixtures, tenant: MatrixTenant) {
  const response = await tenant.admin.post('/api/auto-gate/grant-entry', {
    plateNumber: plate(fx),
    entryGranted: false,
    refusalReason: 'not_registered',
  });
  await expectStatus(response, 201, 'entry');
  return response.json<{ id: string }>().id;
}

async function aUser(fx: MatrixFixtures, tenant: MatrixTenant) {
  const response = await tenant.admin.post('/api/users', {
    username: fx.unique('mxuser'),
    password: 'matrix-pass-1',
    role: 'security_guard',
  });
  await expectStatus(response, 201, 'user');
  return response.json<{ id: string }>().id;
}

/** The tenant's default site (issue 16): every role works there unless assigned elsewhere. */
async function theDefaultSite(_fx: MatrixFixtures, tenant: MatrixTenant) {
  const response = await expectStatus(await tenant.admin.get('/api/sites'), 200, 'sites');
  const site = response.json<{ id: string; isDefault: boolean }[]>().find((s) => s.isDefault);
  if (!site) throw new Error('fixture default site: none');
  return site.id;
}

async function aSite(fx: MatrixFixtures, tenant: MatrixTenant) {
  const response = await tenant.admin.post('/api/sites', { name: fx.unique('Matrix site ') });
  return (await expectStatus(response, 201, 'site')).json<{ id: string }>().id;
}

async function aGate(fx: MatrixFixtures, tenant: MatrixTenant) {
  const siteId = await theDefaultSite(fx, tenant);
  const response = await tenant.admin.post(`/api/sites/${siteId}/gates`, {
    name: fx.unique('Matrix gate '),
    lanes: [{ name: 'In', direction: 'in' }],
  });
  return (await expectStatus(response, 201, 'gate')).json<{ id: string }>().id;
}

/** Issue 28: a fresh site's node token (the site node's credential). */
async function aSiteNodeToken(fx: MatrixFixtures, tenant: MatrixTenant) {
  const siteId = await aSite(fx, tenant);
  const created = await tenant.admin.post(`/api/sites/${siteId}/node-tokens`, { name: 'Matrix' });
  return (await expectStatus(created, 201, 'node token')).json<{ token: string }>().token;
}

/** A granted entry at the default site: its vehicle is on site until the exit. */
async function anEntryOnSite(fx: MatrixFixtures, tenant: MatrixTenant) {
  const response = await tenant.admin.post('/api/auto-gate/grant-entry', {
    plateNumber: plate(fx),
  });
  return (await expectStatus(response, 201, 'entry')).json<{ id: string }>().id;
}

/** Issue 16: the plate of a vehicle on site at the default site (a guard's plate exit). */
async function aPlateOnSite(fx: MatrixFixtures, tenant: MatrixTenant) {
  const plateNumber = plate(fx).replace(/[^A-Z0-9]/g, '');
  const response = await tenant.admin.post('/api/auto-gate/grant-entry', { plateNumber });
  await expectStatus(response, 201, 'plate on site');
  return plateNumber;
}

async function aPersonOnSite(_fx: MatrixFixtures, tenant: MatrixTenant) {
  const response = await tenant.admin.post('/api/visits/people', { name: 'Matrix Visitor' });
  return (await expectStatus(response, 201, 'person on site')).json<{ id: string }>().id;
}

/** The tenant's default gate (created on first use), for the barrier routes. */
async function matrixGate(fx: MatrixFixtures, tenant: MatrixTenant) {
  const { gate } = await fx.t.database.withTenant(tenant.id, (tx) =>
    createSitesRepository().defaultSite(tx, tenant.id),
  );
  return gate.id;
}

const INDUCTION_MANAGERS = ['super_admin', 'tenant_admin', 'back_office'] as const;

/** A safety video hosted elsewhere (no upload needed), with a one-question quiz. */
async function aSafetyVideo(_fx: MatrixFixtures, tenant: MatrixTenant) {
  const response = await tenant.admin.post('/api/safety-videos', {
    title: 'Matrix video',
    passScore: 50,
    questions: [{ question: 'Hard hat?', options: ['Yes', 'No'], correctIndex: 0 }],
    video: { kind: 'url', url: 'https://videos.example.com/matrix.mp4', durationSeconds: 30 },
  });
  return (await expectStatus(response, 201, 'safety video')).json<{ id: string }>().id;
}

/** An uploaded safety video (a built mp4), so its file route has bytes to serve. */
async function anUploadedSafetyVideo(fx: MatrixFixtures, tenant: MatrixTenant) {
  const file = await fx.t.inject({
    method: 'POST',
    url: '/api/safety-videos/files',
    payload: anMp4(12),
    headers: { cookie: tenant.admin.cookie, 'content-type': 'video/mp4' },
  });
  await expectStatus(file, 201, 'video file');
  const response = await tenant.admin.post('/api/safety-videos', {
    title: 'Matrix upload',
    passScore: 50,
    questions: [{ question: 'Hard hat?', options: ['Yes', 'No'], correctIndex: 0 }],
    video: { kind: 'upload', fileKey: file.json<{ fileKey: string }>().fileKey },
  });
  return (await expectStatus(response, 201, 'uploaded video')).json<{ id: string }>().id;
}

async function anInductionAssignment(fx: MatrixFixtures, tenant: MatrixTenant) {
  const response = await tenant.admin.post('/api/induction/assignments', {
    videoId: await aSafetyVideo(fx, tenant),
    driverName: 'Matrix Driver',
    driverIdNumber: '8001015009087',
  });
  return (await expectStatus(response, 201, 'assignment')).json<{ id: string }>().id;
}

const ONBOARDING = ['super_admin', 'tenant_admin', 'back_office'] as const;

/** A valid SA ID number unlikely to repeat in a run (random birth date and sequence). */
function aSaIdNumber(): string {
  const date = `${50 + randomInt(50)}${String(1 + randomInt(12)).padStart(2, '0')}${String(1 + randomInt(28)).padStart(2, '0')}`;
  const twelve = `${date}${String(randomInt(10_000)).padStart(4, '0')}08`;
  const check = [...'0123456789'].find((digit) => passesLuhn(`${twelve}${digit}`)) ?? '0';
  return `${twelve}${check}`;
}

/** A bulk file of one driver as the browser's multipart upload. */
function aBulkUpload(url: string): MatrixRequest {
  const boundary = `matrix${randomBytes(6).toString('hex')}`;
  const csv = `Driver Name*,Surname*,ID Number*\r\nMatrix,Driver,${aSaIdNumber()}\r\n`;
  return {
    url,
    payload:
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="matrix.csv"\r\n` +
      `Content-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** A driver added on the individual tab; its id. */
async function aDriver(_fx: MatrixFixtures, tenant: MatrixTenant) {
  const response = await tenant.admin.post('/api/onboarding/drivers', {
    name: 'Matrix',
    surname: 'Driver',
    idNumber: aSaIdNumber(),
  });
  return (await expectStatus(response, 201, 'driver')).json<{ driver: { id: string } }>().driver.id;
}

/** `'METHOD /api/url'` → entry. */
export const ACCESS_MATRIX: Record<string, MatrixEntry> = {
  'GET /api/health': { access: 'public', request: () => ({ url: '/api/health' }), allowed: 200 },
  'GET /api/ready': { access: 'public', request: () => ({ url: '/api/ready' }), allowed: 200 },
  'POST /api/csp-report': {
    access: 'public',
    request: () => ({
      url: '/api/csp-report',
      headers: { 'content-type': 'application/csp-report' },
      payload: JSON.stringify({ 'csp-report': { 'blocked-uri': 'inline' } }),
    }),
    allowed: 204,
  },

  // ----- auth ------------------------------------------------------------------------------
  'POST /api/auth/register': {
    access: 'public',
    request: (fx) => ({
      url: '/api/auth/register',
      payload: {
        organizationName: fx.unique('Matrix Org '),
        fullName: 'Matrix Admin',
        username: fx.unique('mxreg'),
        password: 'matrix-pass-1',
      },
    }),
    allowed: 201,
  },
  'POST /api/auth/login': {
    access: 'public',
    request: (fx) => ({ url: '/api/auth/login', payload: fx.loginUser }),
    allowed: 200,
  },
  'POST /api/auth/logout': {
    access: 'public',
    caller: 'fresh',
    request: () => ({ url: '/api/auth/logout', payload: {} }),
    allowed: 200,
  },
  'GET /api/auth/me': { access: ALL, request: () => ({ url: '/api/auth/me' }), allowed: 200 },
  'PATCH /api/auth/preferences': {
    access: ALL,
    request: () => ({ url: '/api/auth/preferences', payload: { language: 'zu' } }),
    allowed: 200,
  },
  'POST /api/auth/reauth': {
    access: ALL,
    caller: 'fresh',
    request: (_fx, _object, caller) => ({
      url: '/api/auth/reauth',
      payload: { password: caller.password },
    }),
    allowed: 200,
  },
  'POST /api/auth/change-password': {
    access: ALL,
    caller: 'fresh',
    request: (_fx, _object, caller) => ({
      url: '/api/auth/change-password',
      payload: { currentPassword: caller.password, newPassword: 'matrix-new-pass-2' },
    }),
    allowed: 200,
  },

  // ----- multi-factor sign-in (SEC-26; the paths themselves: mfa.routes.int.test.ts) ------
  'POST /api/auth/mfa/verify': {
    access: ALL,
    request: () => ({ url: '/api/auth/mfa/verify', payload: { code: '123456' } }),
    allowed: 409,
    note: 'the second step answers only a session that owes it; a complete session gets 409',
  },
  'POST /api/auth/mfa/passkeys/authentication/options': {
    access: ALL,
    request: () => ({ url: '/api/auth/mfa/passkeys/authentication/options', payload: {} }),
    allowed: 409,
    note: 'the second step answers only a session that owes it; a complete session gets 409',
  },
  'POST /api/auth/mfa/passkeys/authentication/verify': {
    access: ALL,
    request: () => ({
      url: '/api/auth/mfa/passkeys/authentication/verify',
      payload: { response: createSoftwareAuthenticator().authenticate({ challenge: 'AAAA' }) },
    }),
    allowed: 409,
    note: 'the second step answers only a session that owes it; a complete session gets 409',
  },
  'GET /api/auth/mfa': { access: ALL, request: () => ({ url: '/api/auth/mfa' }), allowed: 200 },
  'POST /api/auth/mfa/totp/setup': {
    access: ALL,
    caller: 'fresh',
    request: () => ({ url: '/api/auth/mfa/totp/setup', payload: {} }),
    allowed: 200,
    note: 'declared recentAuthentication like every factor addition; mfa.routes.int.test.ts checks the 401 REAUTH_REQUIRED after 15 minutes',
  },
  'POST /api/auth/mfa/totp/confirm': {
    access: ALL,
    caller: 'fresh',
    request: () => ({ url: '/api/auth/mfa/totp/confirm', payload: { code: '123456' } }),
    allowed: 409,
    note: 'a fresh caller has started no setup (409); setup then confirm with a right code is in mfa.routes.int.test.ts',
  },
  'DELETE /api/auth/mfa/totp': {
    access: ALL,
    caller: 'fresh',
    request: () => ({ url: '/api/auth/mfa/totp' }),
    allowed: 404,
    note: 'declared recentAuthentication; a fresh caller has no authenticator (404)',
  },
  'POST /api/auth/mfa/passkeys/registration/options': {
    access: ALL,
    request: () => ({ url: '/api/auth/mfa/passkeys/registration/options', payload: {} }),
    allowed: 200,
    note: 'declared recentAuthentication like every factor addition (mfa.routes.int.test.ts)',
  },
  'POST /api/auth/mfa/passkeys/registration/verify': {
    access: ALL,
    caller: 'fresh',
    request: () => ({
      url: '/api/auth/mfa/passkeys/registration/verify',
      payload: { response: createSoftwareAuthenticator().register({ challenge: 'AAAA' }) },
    }),
    allowed: 400,
    note: 'a fresh caller asked for no options, so no challenge is pending (400)',
  },
  'DELETE /api/auth/mfa/passkeys/:id': {
    access: ALL,
    request: () => ({ url: `/api/auth/mfa/passkeys/${randomUUID()}` }),
    allowed: 404,
    note: "only the caller's own passkeys: any other id is 404 (removal after a recent sign-in in mfa.routes.int.test.ts)",
  },
  'POST /api/users/:id/mfa/reset': {
    access: ADMINS,
    object: aUser,
    request: (_fx, id) => ({ url: `/api/users/${id}/mfa/reset`, payload: {} }),
    allowed: 200,
  },

  // ----- users -----------------------------------------------------------------------------
  'GET /api/users': { access: ADMINS, request: () => ({ url: '/api/users' }), allowed: 200 },
  'POST /api/users': {
    access: ADMINS,
    request: (fx) => ({
      url: '/api/users',
      payload: { username: fx.unique('mxnew'), password: 'matrix-pass-1', role: 'back_office' },
    }),
    allowed: 201,
  },
  'PATCH /api/users/:id': {
    access: ADMINS,
    object: aUser,
    request: (_fx, id) => ({ url: `/api/users/${id}`, payload: { fullName: 'Renamed By Matrix' } }),
    allowed: 200,
    note: 'a name change: only a password or email change needs a recent sign-in (SEC-25, auth.routes.int.test.ts)',
  },
  'PATCH /api/users/:id/deactivate': {
    access: ADMINS,
    object: aUser,
    request: (_fx, id) => ({ url: `/api/users/${id}/deactivate`, payload: {} }),
    allowed: 200,
  },
  'PATCH /api/users/:id/reactivate': {
    access: ADMINS,
    object: aUser,
    request: (_fx, id) => ({ url: `/api/users/${id}/reactivate`, payload: {} }),
    allowed: 200,
  },

  // ----- images ----------------------------------------------------------------------------
  'GET /api/images/:tenantId/:kind/:file': {
    access: ALL,
    // A stored passport scan; the key is the path.
    object: async (fx, tenant) => {
      const saved = await tenant.admin.post('/api/passport', { passportImage: fx.jpeg });
      await expectStatus(saved, 201, 'passport');
      const [row] = await fx.t.ownerQuery<{ image_key: string }>(
        'select image_key from passports where id = $1',
        [saved.json<{ id: string }>().id],
      );
      if (!row) throw new Error('fixture passport: no row');
      return row.image_key;
    },
    randomObject: () => `${randomUUID()}/passport/${randomUUID()}.jpg`,
    request: (_fx, key) => ({ url: `/api/images/${key}` }),
    allowed: 200,
  },

  // ----- approved vehicles -----------------------------------------------------------------
  'GET /api/approved-vehicles': {
    access: ALL,
    request: () => ({ url: '/api/approved-vehicles' }),
    allowed: 200,
  },
  'POST /api/approved-vehicles': {
    access: ALL,
    request: (fx) => ({
      url: '/api/approved-vehicles',
      payload: { plateNumber: plate(fx), driverName: 'Matrix Driver' },
    }),
    allowed: 201,
    allowedFor: { security_guard: 400 },
    note: "separation of duties: a guard's proposal needs a driver photo (a real face: slow)",
  },
  'DELETE /api/approved-vehicles/:id': {
    access: ALL,
    object: async (fx, tenant) => (await aVehicle(fx, tenant)).id,
    request: (_fx, id) => ({ url: `/api/approved-vehicles/${id}` }),
    allowed: 204,
    allowedFor: { security_guard: 202 },
    note: "separation of duties: a guard's delete is a proposal (202)",
  },
  ...Object.fromEntries(
    (['confirm', 'reject'] as const).map((decision) => [
      `POST /api/approved-vehicles/:id/${decision}`,
      {
        access: ['super_admin', 'tenant_admin', 'back_office'],
        object: async (fx: MatrixFixtures, tenant: MatrixTenant) =>
          (await aDeletionProposal(fx, tenant)).id,
        request: (_fx: MatrixFixtures, id: string | undefined) => ({
          url: `/api/approved-vehicles/${id}/${decision}`,
          payload: {},
        }),
        allowed: 200,
      } satisfies MatrixEntry,
    ]),
  ),
  'PUT /api/approved-vehicles/:id/trailers': {
    access: ['super_admin', 'tenant_admin', 'back_office'],
    object: async (fx, tenant) => (await aVehicle(fx, tenant)).id,
    request: (fx, id) => ({
      url: `/api/approved-vehicles/${id}/trailers`,
      payload: { trailers: [{ plateNumber: plate(fx), discNumber: 'MATRIX1' }] },
    }),
    allowed: 200,
  },
  'GET /api/approved-vehicles/plate/:plate': {
    access: ALL,
    object: async (fx, tenant) => (await aVehicle(fx, tenant)).plateNumber,
    randomObject: () => `ZZ${randomBytes(3).toString('hex').toUpperCase()}`,
    request: (_fx, value) => ({ url: `/api/approved-vehicles/plate/${value}` }),
    allowed: 200,
  },
  'GET /api/verify-vehicle/:plate': {
    access: ALL,
    object: async (fx, tenant) => (await aVehicle(fx, tenant)).plateNumber,
    randomObject: () => `ZZ${randomBytes(3).toString('hex').toUpperCase()}`,
    request: (_fx, value) => ({ url: `/api/verify-vehicle/${value}` }),
    allowed: 200,
    missing: 200,
    note: "another tenant's plate answers 'not_registered', exactly like an unknown plate",
  },

  // ----- documents -------------------------------------------------------------------------
  // Each cites a capture of the caller's tenant: another tenant's answers like an unknown one.
  ...Object.fromEntries(
    (
      [
        ['licence-disc', 'discImageCaptureId'],
        ['identity-document', 'sourceImageFrontCaptureId'],
        ['drivers-licence', 'sourceImageFrontCaptureId'],
        ['passport', 'passportImageCaptureId'],
        ['weighbridge-ticket', 'ticketImageCaptureId'],
      ] as const
    ).map(([path, field]): [string, MatrixEntry] => [
      `POST /api/${path}`,
      {
        access: ALL,
        object: aCapture,
        request: (_fx, captureId) => ({ url: `/api/${path}`, payload: { [field]: captureId } }),
        allowed: 201,
      },
    ]),
  ),
  'GET /api/weighbridge-tickets': {
    access: ALL,
    request: () => ({ url: '/api/weighbridge-tickets' }),
    allowed: 200,
  },

  // ----- entry logs ------------------------------------------------------------------------
  'GET /api/entry-logs': { access: ALL, request: () => ({ url: '/api/entry-logs' }), allowed: 200 },
  // Issue 15: one entry with its evidence, masked for guards (entry-detail.int.test.ts).
  'GET /api/entry-logs/:id': {
    access: ALL,
    object: anEntry,
    request: (_fx, id) => ({ url: `/api/entry-logs/${id}` }),
    allowed: 200,
  },
  'POST /api/auto-gate/grant-entry': {
    access: ALL,
    // A refused attempt (issue 14), citing its plate capture: logged like a granted one, by every
    // gate role.
    object: aCapture,
    request: (fx, captureId) => ({
      url: '/api/auto-gate/grant-entry',
      payload: {
        plateNumber: plate(fx),
        plateImageCaptureId: captureId,
        entryGranted: false,
        refusalReason: 'not_registered',
      },
    }),
    allowed: 201,
  },
  'GET /api/dashboard': { access: ALL, request: () => ({ url: '/api/dashboard' }), allowed: 200 },
  // Issue 21: a supervisor's override of a refused entry (a fresh refusal each call).
  'POST /api/entry-logs/:id/override': {
    access: ['tenant_admin', 'back_office'],
    object: async (fx, tenant) => {
      const refused = await tenant.admin.post('/api/auto-gate/grant-entry', {
        plateNumber: plate(fx),
        entryGranted: false,
        refusalReason: 'guard_refused',
      });
      return (await expectStatus(refused, 201, 'refused entry')).json<{ id: string }>().id;
    },
    request: (_fx, id) => ({
      url: `/api/entry-logs/${id}/override`,
      payload: { reason: 'Matrix supervisor checked the driver' },
    }),
    allowed: 200,
  },
  // Issue 21: a guard's override with a supervisor's one-time PIN (a fresh refusal and PIN each
  // call; the object is "<entry id>~<pin>").
  'POST /api/entry-logs/:id/pin-override': {
    access: ['tenant_admin', 'back_office', 'security_guard'],
    object: async (fx, tenant) => {
      const pin = await anOverridePin(tenant);
      const refused = await tenant.admin.post('/api/auto-gate/grant-entry', {
        plateNumber: plate(fx),
        entryGranted: false,
        refusalReason: 'guard_refused',
      });
      const id = (await expectStatus(refused, 201, 'refused entry')).json<{ id: string }>().id;
      return `${id}~${pin}`;
    },
    request: (_fx, object) => {
      const [id, pin = '123456'] = (object ?? '').split('~');
      return {
        url: `/api/entry-logs/${id}/pin-override`,
        payload: { pin, reason: 'Matrix supervisor gave the PIN' },
      };
    },
    allowed: 200,
  },
  'POST /api/overrides/pins': {
    access: ['tenant_admin', 'back_office'],
    object: async (_fx, tenant) => {
      await anOverridePin(tenant);
      return 'enabled';
    },
    objects: ['own'],
    request: () => ({ url: '/api/overrides/pins', payload: { note: 'Matrix' } }),
    allowed: 201,
  },
  'GET /api/truck-list': { access: ALL, request: () => ({ url: '/api/truck-list' }), allowed: 200 },

  // ----- vision and faces (refused after the access check, so no model loads) ---------------
  'POST /api/ocr': {
    access: ALL,
    request: () => ({
      url: '/api/ocr',
      payload: {
        image: `data:image/jpeg;base64,${Buffer.from('<html>x</html>').toString('base64')}`,
        type: 'plate',
      },
    }),
    allowed: 415,
    note: 'allowed callers reach the image check (415 for HTML posing as a JPEG)',
  },
  'POST /api/face-comparison': {
    access: ALL,
    object: async (fx, tenant) => (await aVehicle(fx, tenant)).id,
    request: (fx, id) => ({
      url: '/api/face-comparison',
      payload: { image1: fx.jpeg, approvedVehicleId: id },
    }),
    allowed: 422,
    note: 'own vehicle without a photo on file: 422 before any inference',
  },

  // ----- incoming feed and integrations ----------------------------------------------------
  'GET /api/webhook/pending-requests': {
    access: ALL,
    request: () => ({ url: '/api/webhook/pending-requests' }),
    allowed: 200,
  },
  'POST /api/webhook/process-request/:id': {
    access: ALL,
    object: (fx, tenant) => fx.incomingEntry(tenant),
    request: (_fx, id) => ({
      url: `/api/webhook/process-request/${id}`,
      payload: { plateNumber: 'CA123456', driverName: 'Sipho', driverIdNumber: '8001015009087' },
    }),
    allowed: 200,
  },
  'POST /api/webhook/incoming/:tenantId': {
    access: 'public',
    // The caller holds the own tenant's secret and tries it on each tenant's URL.
    object: async (fx, tenant) => {
      if (!fx.secrets.has(fx.own.id)) await fx.freshSecret(fx.own);
      return tenant.id;
    },
    request: (fx, tenantId) => {
      const body = JSON.stringify({ plateNumber: 'CA123456', driverName: 'Matrix' });
      const secret = fx.secrets.get(fx.own.id) ?? '';
      return {
        url: `/api/webhook/incoming/${tenantId}`,
        payload: body,
        headers: signedHeaders(secret, body, { at: fx.t.clock.now() }),
      };
    },
    allowed: 202,
    missing: 401,
    note: 'authenticated by signature: a wrong tenant and an unknown one answer the same 401',
  },
  'POST /api/webhook/incoming/:tenantId/exit': {
    access: 'public',
    // A vehicle on site in `tenant`; the caller holds the own tenant's secret.
    object: async (fx, tenant) => {
      if (!fx.secrets.has(fx.own.id)) await fx.freshSecret(fx.own);
      return `${tenant.id}/${await anEntryOnSite(fx, tenant)}`;
    },
    randomObject: () => `${randomUUID()}/${randomUUID()}`,
    request: (fx, object) => {
      const [tenantId, entryLogId] = (object ?? '/').split('/');
      const body = JSON.stringify({ entryLogId });
      const secret = fx.secrets.get(fx.own.id) ?? '';
      return {
        url: `/api/webhook/incoming/${tenantId}/exit`,
        payload: body,
        headers: signedHeaders(secret, body, { at: fx.t.clock.now() }),
      };
    },
    allowed: 200,
    missing: 401,
    note: 'authenticated by signature: a wrong tenant and an unknown one answer the same 401',
  },
  'GET /api/integrations': {
    access: ADMINS,
    request: () => ({ url: '/api/integrations' }),
    allowed: 200,
  },
  'PATCH /api/integrations': {
    access: ADMINS,
    request: () => ({ url: '/api/integrations', payload: { callbackUrl: null } }),
    allowed: 200,
  },
  'POST /api/integrations/secret': {
    access: ADMINS,
    request: () => ({ url: '/api/integrations/secret', payload: {} }),
    allowed: 201,
  },
  'GET /api/integrations/deliveries': {
    access: ADMINS,
    request: () => ({ url: '/api/integrations/deliveries' }),
    allowed: 200,
  },
  'POST /api/integrations/deliveries/:id/replay': {
    access: ADMINS,
    // Completing an entry queues its callback: that delivery is the object.
    object: async (fx, tenant) => {
      const entryId = await fx.incomingEntry(tenant);
      await expectStatus(
        await tenant.admin.post(`/api/webhook/process-request/${entryId}`, {
          plateNumber: 'CA123456',
          driverName: 'Sipho',
          driverIdNumber: '8001015009087',
        }),
        200,
        'process',
      );
      const [row] = await fx.t.ownerQuery<{ id: string }>(
        'select id from webhook_deliveries where tenant_id = $1 and incoming_request_id = $2',
        [tenant.id, entryId],
      );
      if (!row) throw new Error('fixture delivery: no row');
      return row.id;
    },
    request: (_fx, id) => ({ url: `/api/integrations/deliveries/${id}/replay`, payload: {} }),
    allowed: 202,
  },

  // ----- privacy: POPIA data-subject requests ----------------------------------------------
  'POST /api/data-subjects/export': {
    access: ['tenant_admin'],
    object: aDataSubject,
    randomObject: aSaIdNumber,
    objects: ['own', 'random'],
    request: (_fx, idNumber) => ({ url: '/api/data-subjects/export', payload: { idNumber } }),
    allowed: 200,
    missing: 200,
    note: 'an ID number names a person, not a row: one this tenant does not hold (another tenant’s driver or nobody) gets an empty export, and every request is audited, so the other-tenant case is the random one; privacy.routes.int.test.ts checks that nothing of another tenant is exported',
  },
  'POST /api/data-subjects/erase-biometrics': {
    access: ['tenant_admin'],
    object: aDataSubject,
    randomObject: aSaIdNumber,
    objects: ['own', 'random'],
    request: (_fx, idNumber) => ({
      url: '/api/data-subjects/erase-biometrics',
      payload: { idNumber },
    }),
    allowed: 200,
    missing: 200,
    note: 'as the erasure: a person this tenant does not hold has no biometrics to delete (zeros, audited)',
  },
  'POST /api/data-subjects/erase': {
    access: ['tenant_admin'],
    object: aDataSubject,
    randomObject: aSaIdNumber,
    objects: ['own', 'random'],
    request: (_fx, idNumber) => ({ url: '/api/data-subjects/erase', payload: { idNumber } }),
    allowed: 200,
    missing: 200,
    note: 'erasing a person this tenant does not hold erases nothing (all counts zero) and is audited; privacy.routes.int.test.ts checks that another tenant’s data is untouched',
  },

  'POST /api/data-subjects/email/export': {
    access: ['tenant_admin'],
    object: aReportRecipient,
    randomObject: () => `nobody-${randomInt(1_000_000)}@example.com`,
    objects: ['own', 'random'],
    request: (_fx, email) => ({ url: '/api/data-subjects/email/export', payload: { email } }),
    allowed: 200,
    missing: 200,
    note: 'an address names a person, not a row: one this tenant does not hold gets an empty export (audited); privacy-email.int.test.ts checks that another tenant’s schedules are not exported',
  },
  'POST /api/data-subjects/email/erase': {
    access: ['tenant_admin'],
    object: aReportRecipient,
    randomObject: () => `nobody-${randomInt(1_000_000)}@example.com`,
    objects: ['own', 'random'],
    request: (_fx, email) => ({ url: '/api/data-subjects/email/erase', payload: { email } }),
    allowed: 200,
    missing: 200,
    note: 'erasing an address this tenant does not hold erases nothing (zeros, audited); privacy-email.int.test.ts checks that another tenant’s schedule keeps it',
  },

  // ----- organization settings -------------------------------------------------------------
  'GET /api/settings': {
    access: ['super_admin', 'tenant_admin', 'back_office'],
    request: () => ({ url: '/api/settings' }),
    allowed: 200,
  },
  'PATCH /api/settings': {
    access: ADMINS,
    request: () => ({ url: '/api/settings', payload: { inductionValidityDays: 30 } }),
    allowed: 200,
  },

  // ----- alerts (issue 22) -----------------------------------------------------------------
  'GET /api/alerts': {
    access: ['super_admin', 'tenant_admin', 'back_office'],
    request: () => ({ url: '/api/alerts?state=open' }),
    allowed: 200,
  },
  'POST /api/alerts/:id/acknowledge': {
    access: ['super_admin', 'tenant_admin', 'back_office'],
    // A refused entry raises entry_refused: that alert is the object.
    object: async (fx, tenant) => {
      const refused = await tenant.admin.post('/api/auto-gate/grant-entry', {
        plateNumber: plate(fx),
        entryGranted: false,
      });
      const entryId = (await expectStatus(refused, 201, 'refused entry')).json<{ id: string }>().id;
      const [row] = await fx.t.ownerQuery<{ id: string }>(
        'select id from alerts where tenant_id = $1 and entry_id = $2',
        [tenant.id, entryId],
      );
      if (!row) throw new Error('fixture alert: no row');
      return row.id;
    },
    request: (_fx, id) => ({ url: `/api/alerts/${id}/acknowledge`, payload: {} }),
    allowed: 200,
  },
  'GET /api/alerts/stream': {
    access: ['super_admin', 'tenant_admin', 'back_office'],
    // Without Accept: text/event-stream the stream is refused after the access check (400), so
    // the suite's in-process calls end; the stream itself is tested in alerts.channels.int.test.ts.
    request: () => ({ url: '/api/alerts/stream' }),
    allowed: 400,
  },
  'GET /api/alerts/push-key': {
    access: ADMINS,
    request: () => ({ url: '/api/alerts/push-key' }),
    allowed: 200,
  },
  'POST /api/alerts/push-subscriptions': {
    access: ADMINS,
    request: (fx) => ({
      url: '/api/alerts/push-subscriptions',
      payload: {
        endpoint: `https://push.example.com/${fx.unique('sub')}`,
        keys: {
          p256dh: Buffer.alloc(65, 4).toString('base64url'),
          auth: Buffer.alloc(16, 7).toString('base64url'),
        },
      },
    }),
    allowed: 201,
  },
  'DELETE /api/alerts/push-subscriptions': {
    access: ADMINS,
    object: async (fx, tenant) => {
      const endpoint = `https://push.example.com/${fx.unique('sub')}`;
      const created = await tenant.admin.post('/api/alerts/push-subscriptions', {
        endpoint,
        keys: {
          p256dh: Buffer.alloc(65, 4).toString('base64url'),
          auth: Buffer.alloc(16, 7).toString('base64url'),
        },
      });
      await expectStatus(created, 201, 'push subscription');
      return endpoint;
    },
    randomObject: () => `https://push.example.com/${randomUUID()}`,
    request: (_fx, endpoint) => ({
      url: '/api/alerts/push-subscriptions',
      payload: { endpoint: endpoint ?? '' },
    }),
    allowed: 204,
  },
  'GET /api/settings/alerts': {
    access: ADMINS,
    request: () => ({ url: '/api/settings/alerts' }),
    allowed: 200,
  },
  'PATCH /api/settings/alerts': {
    access: ADMINS,
    request: () => ({ url: '/api/settings/alerts', payload: { repeatEveryMinutes: 15 } }),
    allowed: 200,
  },

  'GET /api/settings/rules': {
    access: ['super_admin', 'tenant_admin', 'back_office'],
    request: () => ({ url: '/api/settings/rules' }),
    allowed: 200,
  },
  'PATCH /api/settings/rules': {
    access: ADMINS,
    request: () => ({ url: '/api/settings/rules', payload: { rules: { disc_expired: 'warn' } } }),
    allowed: 200,
  },

  'GET /api/settings/override-pins': {
    access: ['super_admin', 'tenant_admin', 'back_office'],
    request: () => ({ url: '/api/settings/override-pins' }),
    allowed: 200,
  },
  'PATCH /api/settings/override-pins': {
    access: ADMINS,
    request: () => ({ url: '/api/settings/override-pins', payload: { validityMinutes: 30 } }),
    allowed: 200,
  },

  // ----- watchlist (issue 21) ----------------------------------------------------------------
  'GET /api/watchlist': {
    access: ['super_admin', 'tenant_admin', 'back_office'],
    request: () => ({ url: '/api/watchlist' }),
    allowed: 200,
  },
  'POST /api/watchlist': {
    access: ADMINS,
    request: (fx) => ({
      url: '/api/watchlist',
      payload: { kind: 'plate', value: plate(fx), reason: 'Matrix', severity: 'alert' },
    }),
    allowed: 201,
  },
  'PATCH /api/watchlist/:id': {
    access: ADMINS,
    object: aWatchlistEntry,
    request: (_fx, id) => ({ url: `/api/watchlist/${id}`, payload: { reason: 'Matrix changed' } }),
    allowed: 200,
  },
  'DELETE /api/watchlist/:id': {
    access: ADMINS,
    object: aWatchlistEntry,
    request: (_fx, id) => ({ url: `/api/watchlist/${id}` }),
    allowed: 204,
  },

  // ----- ANPR ------------------------------------------------------------------------------
  'POST /api/anpr/cameras': {
    access: ADMINS,
    request: () => ({ url: '/api/anpr/cameras', payload: { name: 'Matrix gate' } }),
    allowed: 201,
  },
  'GET /api/anpr/cameras': {
    access: ADMINS,
    request: () => ({ url: '/api/anpr/cameras' }),
    allowed: 200,
  },
  'PATCH /api/anpr/cameras/:id': {
    access: ADMINS,
    object: async (_fx, tenant) => {
      const created = await tenant.admin.post('/api/anpr/cameras', { name: 'Matrix moved' });
      return (await expectStatus(created, 201, 'camera')).json<{ id: string }>().id;
    },
    request: (_fx, id) => ({ url: `/api/anpr/cameras/${id}`, payload: { name: 'Matrix renamed' } }),
    allowed: 200,
  },
  'DELETE /api/anpr/cameras/:id': {
    access: ADMINS,
    object: async (_fx, tenant) => {
      const created = await tenant.admin.post('/api/anpr/cameras', { name: 'Matrix cam' });
      return (await expectStatus(created, 201, 'camera')).json<{ id: string }>().id;
    },
    request: (_fx, id) => ({ url: `/api/anpr/cameras/${id}` }),
    allowed: 204,
  },
  'POST /api/anpr/:cameraToken': {
    access: 'public',
    object: async (_fx, tenant) => {
      const created = await tenant.admin.post('/api/anpr/cameras', { name: 'Matrix push' });
      return (await expectStatus(created, 201, 'camera')).json<{ token: string }>().token;
    },
    randomObject: () => randomBytes(32).toString('base64url'),
    objects: ['own', 'random'],
    request: (_fx, token) => ({ url: `/api/anpr/${token}`, payload: { plateNumber: 'CA123456' } }),
    allowed: 201,
    note: "the token is the camera's credential and names its tenant, so there is no other-tenant case",
  },
  // ----- barriers (issue 17) ---------------------------------------------------------------
  'POST /api/gates/:id/agent-token': {
    access: ['tenant_admin'],
    object: (fx, tenant) => matrixGate(fx, tenant),
    request: (_fx, id) => ({ url: `/api/gates/${id}/agent-token` }),
    allowed: 201,
  },
  'POST /api/gates/:id/open': {
    access: ['tenant_admin', 'security_guard'],
    object: (fx, tenant) => matrixGate(fx, tenant),
    request: (_fx, id) => ({ url: `/api/gates/${id}/open`, payload: { reason: 'test' } }),
    allowed: 200,
    note: 'no agent is connected, so the answer is `offline` (audited); barriers.int.test.ts opens real simulators',
  },
  'GET /api/gates/:id/barrier': {
    access: ['tenant_admin', 'back_office', 'security_guard'],
    object: (fx, tenant) => matrixGate(fx, tenant),
    request: (_fx, id) => ({ url: `/api/gates/${id}/barrier` }),
    allowed: 200,
  },
  'GET /api/agent/connect': {
    access: 'public',
    object: async (fx, tenant) => {
      const gateId = await matrixGate(fx, tenant);
      const created = await tenant.admin.post(`/api/gates/${gateId}/agent-token`);
      return (await expectStatus(created, 201, 'agent token')).json<{ token: string }>().token;
    },
    randomObject: () => randomBytes(32).toString('base64url'),
    objects: ['own', 'random'],
    request: (_fx, token) => ({
      url: '/api/agent/connect',
      headers: { authorization: `Bearer ${token}` },
    }),
    allowed: 400,
    missing: 401,
    note: "the token is the agent's credential and names its gate; a plain HTTP request with a valid token is refused (400), agents upgrade to a WebSocket",
  },
  'POST /api/anpr/reads': {
    access: 'public',
    object: async (fx, tenant) => {
      const siteId = await theDefaultSite(fx, tenant);
      const gate = await tenant.admin.post(`/api/sites/${siteId}/gates`, {
        name: fx.unique('Matrix lane gate '),
        lanes: [{ name: 'In', direction: 'in', automatic: true }],
      });
      const gateId = (await expectStatus(gate, 201, 'gate')).json<{ id: string }>().id;
      const created = await tenant.admin.post(`/api/gates/${gateId}/agent-token`);
      return (await expectStatus(created, 201, 'agent token')).json<{ token: string }>().token;
    },
    randomObject: () => randomBytes(32).toString('base64url'),
    objects: ['own', 'random'],
    request: (fx, token) => ({
      url: '/api/anpr/reads',
      headers: { authorization: `Bearer ${token}` },
      payload: { plateNumber: plate(fx), lane: 'In' },
    }),
    allowed: 200,
    missing: 401,
    note: 'the agent token names its tenant and gate; an unknown plate is decided (refused) and logged; anpr-lanes.int.test.ts drives the boom',
  },
  // ----- induction -------------------------------------------------------------------------
  'GET /api/safety-videos': {
    access: INDUCTION_MANAGERS,
    request: () => ({ url: '/api/safety-videos' }),
    allowed: 200,
  },
  'POST /api/safety-videos/files': {
    access: INDUCTION_MANAGERS,
    request: () => ({
      url: '/api/safety-videos/files',
      payload: 'not a video',
      headers: { 'content-type': 'video/mp4' },
    }),
    allowed: 415,
    note: 'a non-video is refused after the access check; uploads are covered by induction tests',
  },
  'POST /api/safety-videos': {
    access: INDUCTION_MANAGERS,
    request: () => ({
      url: '/api/safety-videos',
      payload: {
        title: 'Matrix new video',
        passScore: 80,
        questions: [{ question: 'Hard hat?', options: ['Yes', 'No'], correctIndex: 0 }],
        video: { kind: 'url', url: 'https://videos.example.com/new.mp4', durationSeconds: 20 },
      },
    }),
    allowed: 201,
  },
  'DELETE /api/safety-videos/:videoId': {
    access: INDUCTION_MANAGERS,
    object: aSafetyVideo,
    request: (_fx, id) => ({ url: `/api/safety-videos/${id}` }),
    allowed: 204,
  },
  'GET /api/safety-videos/:videoId': {
    access: ALL,
    object: aSafetyVideo,
    request: (_fx, id) => ({ url: `/api/safety-videos/${id}` }),
    allowed: 200,
  },
  'GET /api/safety-videos/:videoId/file': {
    access: ALL,
    object: anUploadedSafetyVideo,
    request: (_fx, id) => ({ url: `/api/safety-videos/${id}/file` }),
    allowed: 200,
  },
  'GET /api/induction/assignments': {
    access: INDUCTION_MANAGERS,
    request: () => ({ url: '/api/induction/assignments' }),
    allowed: 200,
  },
  'POST /api/induction/assignments': {
    access: INDUCTION_MANAGERS,
    object: aSafetyVideo,
    request: (_fx, videoId) => ({
      url: '/api/induction/assignments',
      payload: { videoId, driverName: 'Matrix Driver', driverIdNumber: '8001015009087' },
    }),
    allowed: 201,
  },
  'DELETE /api/induction/assignments/:assignmentId': {
    access: INDUCTION_MANAGERS,
    object: anInductionAssignment,
    request: (_fx, id) => ({ url: `/api/induction/assignments/${id}` }),
    allowed: 204,
  },
  'GET /api/induction/assignment/:assignmentId': {
    access: ALL,
    object: anInductionAssignment,
    request: (_fx, id) => ({ url: `/api/induction/assignment/${id}` }),
    allowed: 200,
  },
  'POST /api/induction/progress': {
    access: ALL,
    object: anInductionAssignment,
    request: (_fx, assignmentId) => ({
      url: '/api/induction/progress',
      payload: { assignmentId, positionSeconds: 0 },
    }),
    allowed: 200,
  },
  'POST /api/induction/submit': {
    access: ALL,
    object: anInductionAssignment,
    request: (_fx, assignmentId) => ({
      url: '/api/induction/submit',
      payload: { assignmentId, responses: [0] },
    }),
    allowed: 409,
    note: 'own assignment: 409 until the video has been watched (scoring is in the induction tests)',
  },
  'POST /api/induction/retake/:assignmentId': {
    access: ALL,
    object: anInductionAssignment,
    request: (_fx, id) => ({ url: `/api/induction/retake/${id}`, payload: {} }),
    allowed: 204,
  },
  'GET /api/induction/status': {
    access: ALL,
    request: () => ({ url: '/api/induction/status?idNumber=8001015009087' }),
    allowed: 200,
  },

  // ----- onboarding and drivers ------------------------------------------------------------
  'GET /api/onboarding/template.csv': {
    access: ONBOARDING,
    request: () => ({ url: '/api/onboarding/template.csv' }),
    allowed: 200,
  },
  'GET /api/onboarding/template.xlsx': {
    access: ONBOARDING,
    request: () => ({ url: '/api/onboarding/template.xlsx' }),
    allowed: 200,
  },
  'POST /api/onboarding/import/preview': {
    access: ONBOARDING,
    request: () => aBulkUpload('/api/onboarding/import/preview'),
    allowed: 200,
  },
  'POST /api/onboarding/import': {
    access: ONBOARDING,
    request: () => aBulkUpload('/api/onboarding/import'),
    allowed: 200,
  },
  'POST /api/onboarding/import/errors.csv': {
    access: ONBOARDING,
    request: () => aBulkUpload('/api/onboarding/import/errors.csv'),
    allowed: 200,
  },
  'POST /api/onboarding/drivers': {
    access: ONBOARDING,
    request: () => ({
      url: '/api/onboarding/drivers',
      payload: { name: 'Matrix', surname: 'Driver', idNumber: aSaIdNumber() },
    }),
    allowed: 201,
  },
  'POST /api/onboarding/self': {
    access: ONBOARDING,
    request: (fx) => ({
      url: '/api/onboarding/self',
      payload: {
        name: 'Matrix',
        surname: 'Driver',
        idNumber: aSaIdNumber(),
        phone: '082 123 4567',
        licencePhoto: fx.jpeg,
        selfie: `data:image/jpeg;base64,${Buffer.from('<html>x</html>').toString('base64')}`,
        livenessFrames: { look: fx.jpeg, blink: fx.jpeg, turn_left: fx.jpeg, turn_right: fx.jpeg },
        biometricConsent: true,
      },
    }),
    allowed: 415,
    note: 'allowed callers reach the selfie check (415 for HTML posing as a JPEG), before any inference',
  },
  'GET /api/drivers': {
    access: ONBOARDING,
    request: () => ({ url: '/api/drivers' }),
    allowed: 200,
  },
  'GET /api/drivers/export.csv': {
    access: ONBOARDING,
    request: () => ({ url: '/api/drivers/export.csv' }),
    allowed: 200,
    note: 'declared recentAuthentication (SEC-25): the matrix callers signed in moments ago, so they pass; auth.routes.int.test.ts checks the 401 REAUTH_REQUIRED after 15 minutes',
  },
  'GET /api/audit-events': {
    access: ADMINS,
    request: () => ({ url: '/api/audit-events?action=entry.' }),
    allowed: 200,
  },
  // Issue 26. The roles call in order (super_admin first) on the same organization: the first
  // call starts a rotation, the tenant_admin's meets it still running (its re-seal job waits out
  // the key cache), so its own-object answer is 409.
  'POST /api/keys/rotate': {
    access: ADMINS,
    request: () => ({ url: '/api/keys/rotate', payload: {} }),
    allowed: 202,
    allowedFor: { tenant_admin: 409 },
  },
  'GET /api/keys/status': {
    access: ADMINS,
    request: () => ({ url: '/api/keys/status' }),
    allowed: 200,
  },
  'GET /api/audit-events/export': {
    access: ADMINS,
    request: () => ({ url: '/api/audit-events/export?format=csv' }),
    allowed: 200,
    note: 'declared recentAuthentication (SEC-25); audit-events.routes.int.test.ts checks the 401 REAUTH_REQUIRED after 15 minutes',
  },
  'GET /api/exports/entry-logs': {
    access: ONBOARDING,
    request: () => ({ url: '/api/exports/entry-logs?format=csv&from=2026-01-01&to=2026-01-31' }),
    allowed: 200,
    note: 'declared recentAuthentication (SEC-25); entry-export.routes.int.test.ts checks the 401 REAUTH_REQUIRED after 15 minutes',
  },
  'GET /api/exports/refusals': {
    access: ONBOARDING,
    request: () => ({ url: '/api/exports/refusals?format=csv&from=2026-01-01&to=2026-01-31' }),
    allowed: 200,
    note: 'declared recentAuthentication (SEC-25), as the entry export',
  },
  'GET /api/exports/weighbridge-tickets': {
    access: ONBOARDING,
    request: () => ({
      url: '/api/exports/weighbridge-tickets?format=xlsx&from=2026-01-01&to=2026-01-31',
    }),
    allowed: 200,
    note: 'declared recentAuthentication (SEC-25), as the entry export',
  },
  'GET /api/exports/watchlist-hits': {
    access: ONBOARDING,
    request: () => ({
      url: '/api/exports/watchlist-hits?format=csv&from=2026-01-01&to=2026-01-31',
    }),
    allowed: 200,
    note: 'declared recentAuthentication (SEC-25), as the entry export',
  },
  'GET /api/reports/schedule': {
    access: ADMINS,
    request: () => ({ url: '/api/reports/schedule' }),
    allowed: 200,
  },
  'PATCH /api/reports/schedule': {
    access: ADMINS,
    request: () => ({
      url: '/api/reports/schedule',
      payload: { frequency: 'weekly', recipients: ['manager@example.com'] },
    }),
    allowed: 200,
  },
  'GET /api/reports/summary': {
    access: ONBOARDING,
    request: () => ({ url: '/api/reports/summary?from=2026-01-01&to=2026-01-31' }),
    allowed: 200,
  },
  'GET /api/drivers/:id': {
    access: ONBOARDING,
    object: aDriver,
    request: (_fx, id) => ({ url: `/api/drivers/${id}` }),
    allowed: 200,
  },
  'POST /api/drivers/verify-reference': {
    access: ALL,
    object: async (fx, tenant) =>
      fx.t.modules.drivers.service.referenceFor({
        tenantId: tenant.id,
        id: await aDriver(fx, tenant),
      }),
    objects: ['own', 'other'],
    request: (_fx, reference) => ({
      url: '/api/drivers/verify-reference',
      payload: { reference: reference ?? '' },
    }),
    allowed: 200,
    note: "another tenant's signed reference is 404; an unsigned code is 422 (see the onboarding tests)",
  },
  // ----- sites, gates and visits (issue 16) --------------------------------------------------
  'GET /api/sites': { access: ALL, request: () => ({ url: '/api/sites' }), allowed: 200 },
  'POST /api/sites': {
    access: ADMINS,
    request: (fx) => ({ url: '/api/sites', payload: { name: fx.unique('Matrix new site ') } }),
    allowed: 201,
  },
  'PATCH /api/sites/:id': {
    access: ADMINS,
    object: aSite,
    request: (_fx, id) => ({ url: `/api/sites/${id}`, payload: { overstayMinutes: 90 } }),
    allowed: 200,
  },
  'GET /api/sites/:siteId/gates': {
    access: ALL,
    object: theDefaultSite,
    request: (_fx, id) => ({ url: `/api/sites/${id}/gates` }),
    allowed: 200,
  },
  'POST /api/sites/:siteId/gates': {
    access: ADMINS,
    object: aSite,
    request: (fx, id) => ({
      url: `/api/sites/${id}/gates`,
      payload: { name: fx.unique('Matrix gate '), lanes: [{ name: 'Out', direction: 'out' }] },
    }),
    allowed: 201,
  },
  // ----- site nodes (issue 28) --------------------------------------------------------------
  'POST /api/sites/:id/node-tokens': {
    access: ADMINS,
    object: aSite,
    request: (_fx, id) => ({
      url: `/api/sites/${id}/node-tokens`,
      payload: { name: 'Matrix node' },
    }),
    allowed: 201,
  },
  'GET /api/sites/:id/node-tokens': {
    access: ADMINS,
    object: aSite,
    request: (_fx, id) => ({ url: `/api/sites/${id}/node-tokens` }),
    allowed: 200,
  },
  'DELETE /api/sites/:id/node-tokens/:tokenId': {
    access: ADMINS,
    object: async (fx, tenant) => {
      const siteId = await aSite(fx, tenant);
      const created = await tenant.admin.post(`/api/sites/${siteId}/node-tokens`, {
        name: 'Matrix revoke',
      });
      const tokenId = (await expectStatus(created, 201, 'node token')).json<{ id: string }>().id;
      return `${siteId}/node-tokens/${tokenId}`;
    },
    randomObject: () => `${randomUUID()}/node-tokens/${randomUUID()}`,
    request: (_fx, path) => ({ url: `/api/sites/${path}` }),
    allowed: 204,
  },
  'GET /api/site-sync/changes': {
    access: 'public',
    object: aSiteNodeToken,
    randomObject: () => randomBytes(32).toString('base64url'),
    objects: ['own', 'random'],
    request: (_fx, token) => ({
      url: '/api/site-sync/changes?since=0&limit=10',
      headers: { authorization: `Bearer ${token}` },
    }),
    allowed: 200,
    missing: 401,
    readWrites: ['site_node_tokens'],
    note: "the site token names its tenant and site; a session cookie is not read here (site-sync.int.test.ts); the pull records the node's last sync on its token",
  },
  'POST /api/site-sync/events': {
    access: 'public',
    object: aSiteNodeToken,
    randomObject: () => randomBytes(32).toString('base64url'),
    objects: ['own', 'random'],
    request: (_fx, token) => ({
      url: '/api/site-sync/events',
      headers: { authorization: `Bearer ${token}` },
      payload: {
        events: [
          {
            id: randomUUID(),
            gateId: null,
            seq: 1,
            kind: 'audit',
            siteRecordedAt: new Date().toISOString(),
            payload: { action: 'matrix', occurred_at: new Date().toISOString() },
          },
        ],
      },
    }),
    allowed: 200,
    missing: 401,
    note: "each token is a fresh site's, so its site stream starts at seq 1",
  },
  'POST /api/site-sync/objects': {
    access: 'public',
    object: aSiteNodeToken,
    randomObject: () => randomBytes(32).toString('base64url'),
    objects: ['own', 'random'],
    request: (_fx, token) => ({
      url: '/api/site-sync/objects',
      headers: { authorization: `Bearer ${token}` },
      payload: { key: `${randomUUID()}/faces/${randomUUID()}.jpg`, object: 'AAAA' },
    }),
    allowed: 400,
    missing: 401,
    note: "refused after the token check: the key is not of the token's tenant (site-sync-events.int.test.ts stores a sealed one)",
  },
  'GET /api/site-sync/acknowledged': {
    access: 'public',
    object: aSiteNodeToken,
    randomObject: () => randomBytes(32).toString('base64url'),
    objects: ['own', 'random'],
    request: (_fx, token) => ({
      url: '/api/site-sync/acknowledged',
      headers: { authorization: `Bearer ${token}` },
    }),
    allowed: 200,
    missing: 401,
    note: "the held seq of each stream of the token's own site only (site-node-restore.int.test.ts)",
  },
  'POST /api/site-sync/keys': {
    access: 'public',
    object: aSiteNodeToken,
    randomObject: () => randomBytes(32).toString('base64url'),
    objects: ['own', 'random'],
    request: (_fx, token) => ({
      url: '/api/site-sync/keys',
      headers: { authorization: `Bearer ${token}` },
      payload: { nodePublicKey: nodeKeyPair(randomBytes(32)).publicKey, have: [] },
    }),
    allowed: 200,
    missing: 401,
    note: "the tenant's keys wrapped for the node's X25519 key; the token names the tenant, never another's keys (site-sync.int.test.ts)",
  },
  'GET /api/site-sync/status': {
    access: ALL,
    request: () => ({ url: '/api/site-sync/status' }),
    allowed: 200,
  },
  'PATCH /api/gates/:id': {
    access: ADMINS,
    object: aGate,
    request: (_fx, id) => ({ url: `/api/gates/${id}`, payload: { isActive: false } }),
    allowed: 200,
  },
  'POST /api/entry-logs/:id/exit': {
    access: ALL,
    object: anEntryOnSite,
    request: (_fx, id) => ({ url: `/api/entry-logs/${id}/exit`, payload: {} }),
    allowed: 200,
  },
  'GET /api/entry-logs/:id/visit': {
    access: ALL,
    object: anEntryOnSite,
    request: (_fx, id) => ({ url: `/api/entry-logs/${id}/visit` }),
    allowed: 200,
  },
  'POST /api/visits/:id/exit': {
    access: ALL,
    object: aPersonOnSite,
    request: (_fx, id) => ({ url: `/api/visits/${id}/exit`, payload: {} }),
    allowed: 200,
  },
  'POST /api/visits/plate-exit': {
    access: ALL,
    object: aPlateOnSite,
    randomObject: () => `NO${randomInt(10_000_000)}`,
    request: (_fx, plateNumber) => ({ url: '/api/visits/plate-exit', payload: { plateNumber } }),
    allowed: 200,
  },
  'POST /api/visits/people': {
    access: ALL,
    request: () => ({
      url: '/api/visits/people',
      payload: { name: 'Matrix Walker', company: 'Matrix Co' },
    }),
    allowed: 201,
  },
  'GET /api/on-site': { access: ALL, request: () => ({ url: '/api/on-site' }), allowed: 200 },
  // ----- guard devices (issue 18) ----------------------------------------------------------
  'POST /api/devices/contact': {
    access: ALL,
    request: () => ({
      url: '/api/devices/contact',
      payload: { deviceId: randomUUID(), label: 'Matrix phone' },
    }),
    allowed: 200,
  },
  'GET /api/devices': { access: ADMINS, request: () => ({ url: '/api/devices' }), allowed: 200 },
  'POST /api/devices/:id/revoke': {
    access: ADMINS,
    object: async (_fx, tenant) => {
      const contact = await tenant.admin.post('/api/devices/contact', { deviceId: randomUUID() });
      return (await expectStatus(contact, 200, 'device')).json<{ id: string }>().id;
    },
    request: (_fx, id) => ({ url: `/api/devices/${id}/revoke` }),
    allowed: 200,
  },
};
