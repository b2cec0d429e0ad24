import { availableParallelism } from 'node:os';

import type { Env } from '@/config/env';
import { createAlertsModule } from '@/modules/alerts';
import { createApprovedVehiclesModule } from '@/modules/approved-vehicles';
import { auditSealedTable, createAuditEventsModule, createAuditService } from '@/modules/audit';
import { createAnprModule } from '@/modules/anpr';
import { createAnprLanesModule } from '@/modules/anpr-lanes';
import { createAuthModule } from '@/modules/auth';
import { createBarriersModule } from '@/modules/barriers';
import { createCapturesModule } from '@/modules/captures';
import { createCorrectionsModule } from '@/modules/corrections';
import { createDocumentRulesModule } from '@/modules/document-rules';
import { createDevicesModule } from '@/modules/devices';
import { createDocumentsModule } from '@/modules/documents';
import { createDriversModule } from '@/modules/drivers';
import {
  createEntryLogsModule,
  entryAsSeenBy,
  entryLogPresenter,
  maskedWarningsTable,
} from '@/modules/entry-logs';
import { createFacesModule } from '@/modules/faces';
import { createImagesModule } from '@/modules/images';
import { createInductionModule } from '@/modules/induction';
import { createKeysModule } from '@/modules/keys';
import { createMfaModule } from '@/modules/mfa';
import { createOnboardingModule } from '@/modules/onboarding';
import { createOverridePinsModule } from '@/modules/override-pins';
import { createPrivacyModule } from '@/modules/privacy';
import { createRateLimitsModule } from '@/modules/rate-limits';
import { createReportsModule } from '@/modules/reports';
import { createSessionsModule } from '@/modules/sessions';
import { createSettingsModule } from '@/modules/settings';
import { createSiteSyncModule, siteEventsSealedTable } from '@/modules/site-sync';
import { createSiteNodeModule, createSiteFacts, outboxSealedTable } from '@/modules/site-node';
import { createSitesModule, createSitesRepository } from '@/modules/sites';
import { createTenantsModule } from '@/modules/tenants';
import { createTruckListModule } from '@/modules/truck-list';
import { createUsersModule } from '@/modules/users';
import { createVisitsModule } from '@/modules/visits';
import {
  type GateVisionEngine,
  createVisionAdmission,
  createVisionModule,
  withVisionAdmission,
} from '@/modules/vision';
import { createWatchlistModule } from '@/modules/watchlist';
import { createCallbackSender, createWebhooksModule } from '@/modules/webhooks';
import type { Clock } from '@/platform/clock';
import { createSecretBox } from '@/platform/crypto';
import { previousMastersOf } from '@/platform/root-key';
import type { Database } from '@/platform/db';
import type { ObjectStorage } from '@/platform/storage';

export type Infrastructure = {
  env: Env;
  database: Database;
  clock: Clock;
  sessionSecret: string;
  /** ENCRYPTION_KEY, the master key: wraps the tenants' keys and the root key. */
  encryptionKey: Buffer;
  /**
   * The platform root key (platform/root-key.ts), wrapped by the master key: encrypts secrets
   * kept in the database (integration secrets) and is what purpose keys are derived from.
   */
  rootKey: Buffer;
  storage: ObjectStorage;
  visionEngine: GateVisionEngine;
};

/** The composition root: the only place that knows the whole dependency graph. */
export function createModules({
  env,
  database,
  clock,
  sessionSecret,
  encryptionKey: master,
  // Everything below that says encryptionKey gets the root key (issue 26): a master-key
  // rotation re-wraps it and changes no secret box, hash or derived key.
  rootKey: encryptionKey,
  storage: storedObjects,
  visionEngine,
}: Infrastructure) {
  const audit = createAuditService({ clock });
  // Issue 28: on a site node every fact (entries, exits, captures with their objects, face
  // comparisons, corrections, audit events) is also written to the outbox for central.
  const recordedFacts = env.siteNode ? createSiteFacts(storedObjects) : undefined;
  if (recordedFacts) audit.recordFactsWith(recordedFacts);
  // Issue 26: every object goes into storage sealed with its tenant's data key, through here.
  const keys = createKeysModule({
    database,
    master,
    previousMasters: previousMastersOf(env.ENCRYPTION_KEY_PREVIOUS),
    storage: storedObjects,
    audit,
    clock,
    cacheMs: env.KEY_CACHE_SECONDS * 1000,
    // Issue 28: a site node seals with central's keys, delivered by the sync; it makes none.
    createMissingKeys: !env.siteNode,
  });
  const { storage } = keys;
  // Issue 26: the audit trail's personal details are sealed under each tenant's audit key.
  audit.sealWith(keys.keyring.audit);
  keys.service.register(auditSealedTable(database, keys.keyring.audit));
  // Issue 28: a node re-seals its unacknowledged facts' payloads before it erases a retired key.
  if (env.siteNode) keys.service.register(outboxSealedTable(database, keys.keyring));
  // Issue 28: central's stored copies of site facts carry sealed values too (ADR 0009).
  else keys.service.register(siteEventsSealedTable(database, keys.keyring));
  const rateLimits = createRateLimitsModule({ db: database.db, clock });
  // Every image read runs under its user's budget (issue 20): one guard's heavy uploads cannot
  // starve another user's plate read.
  const visionAdmission = createVisionAdmission({
    readsPerUser: env.VISION_READS_PER_USER,
    queuedPerUser: env.VISION_QUEUE_PER_USER,
    // Two per worker thread: one running, one ready to start, the rest waiting in turn here.
    readsInFlight: 2 * (env.VISION_THREADS ?? Math.max(1, availableParallelism() - 1)),
  });
  const visionWork = withVisionAdmission(visionEngine, visionAdmission);
  const tenants = createTenantsModule();
  const settings = createSettingsModule({ database, tenants: tenants.repository, audit });
  const sessions = createSessionsModule({
    db: database.db,
    clock,
    secret: sessionSecret,
    policy: {
      idleTimeoutMinutes: env.SESSION_IDLE_TIMEOUT_MINUTES,
      absoluteTimeoutHours: env.SESSION_ABSOLUTE_TIMEOUT_HOURS,
    },
  });
  // Issue 16: sites, gates and lanes; the sites each user works at.
  const sites = createSitesModule({ database, audit });
  const users = createUsersModule({
    database,
    sessions: sessions.service,
    audit,
    clock,
    passwordMinLength: env.PASSWORD_MIN_LENGTH,
    siteAssignments: sites.service,
  });
  const mfa = createMfaModule({
    database,
    users: users.service,
    tenants: tenants.repository,
    sessions: sessions.service,
    audit,
    clock,
    secretBox: createSecretBox(encryptionKey),
    encryptionKey,
    publicOrigin: env.PUBLIC_ORIGIN,
  });
  const auth = createAuthModule({
    db: database.db,
    database,
    tenants: tenants.repository,
    users: users.service,
    sessions: sessions.service,
    audit,
    mfa: mfa.service,
    relyingParty: mfa.relyingParty,
    clock,
    throttle: {
      maxFailuresPerAccount: env.LOGIN_MAX_FAILURES_PER_ACCOUNT,
      maxFailuresPerIp: env.LOGIN_MAX_FAILURES_PER_IP,
    },
    counters: rateLimits.store,
  });
  const images = createImagesModule({ storage, database, audit });
  // Issue 14: images uploaded once (POST /api/ocr), cited by every route that takes an image.
  const captures = createCapturesModule({
    database,
    images: images.service,
    storage,
    clock,
    sealer: keys.keyring,
    ...(recordedFacts && { siteFacts: recordedFacts }),
  });
  keys.service.register(captures.sealedTable);
  // Issue 15: what the guard typed beside what was read, saved with documents and entries.
  const corrections = createCorrectionsModule({
    captures: captures.service,
    audit,
    clock,
    database,
    sealer: keys.keyring,
    ...(recordedFacts && { siteFacts: recordedFacts }),
  });
  keys.service.register(corrections.sealedTable);
  const drivers = createDriversModule({
    database,
    images: images.service,
    audit,
    clock,
    encryptionKey,
    sealer: keys.keyring,
    biometricRetentionDays: env.BIOMETRIC_RETENTION_DAYS,
  });
  keys.service.register(drivers.sealedColumns);
  const induction = createInductionModule({
    database,
    tenants: tenants.repository,
    images: images.service,
    storage,
    audit,
    clock,
    biometricRetentionDays: env.BIOMETRIC_RETENTION_DAYS,
    sealer: keys.keyring,
  });
  keys.service.register(induction.sealedColumns);
  const approvedVehicles = createApprovedVehiclesModule({
    db: database.db,
    database,
    images: images.service,
    audit,
    captures: captures.service,
    clock,
    faces: visionWork,
    // The plate lookup shows the linked driver's safety induction (issue 7).
    drivers: drivers.service,
    induction: induction.service,
    secretBox: createSecretBox(encryptionKey),
    biometricRetentionDays: env.BIOMETRIC_RETENTION_DAYS,
    settings: settings.service,
    // Issue 21: made below (after alerts); reached only when a vehicle is pre-registered.
    watchlist: {
      screen: (...args) => watchlist.service.screen(...args),
      recordHits: (...args) => watchlist.service.recordHits(...args),
    },
  });
  const onboarding = createOnboardingModule({
    database,
    drivers: drivers.service,
    vehicles: approvedVehicles.service,
    images: images.service,
    audit,
    clock,
    faces: visionWork,
    biometricRetentionDays: env.BIOMETRIC_RETENTION_DAYS,
  });
  const vision = createVisionModule({
    engine: visionWork,
    database,
    audit,
    captures: captures.service,
  });
  const faces = createFacesModule({
    engine: visionWork,
    database,
    vehicles: approvedVehicles.service,
    images: images.service,
    audit,
    settings: settings.service,
    captures: captures.service,
    clock,
    ...(recordedFacts && { siteFacts: recordedFacts }),
  });
  const documents = createDocumentsModule({
    database,
    images: images.service,
    audit,
    captures: captures.service,
    corrections: corrections.service,
    clock,
    sealer: keys.keyring,
  });
  for (const spec of documents.sealedColumns) keys.service.register(spec);
  // Issue 16: a granted entry opens its visit; the exit closes it.
  const visits = createVisitsModule({
    database,
    sites: sites.service,
    audit,
    clock,
    ...(recordedFacts && { siteFacts: recordedFacts }),
    sealer: keys.keyring,
  });
  keys.service.register(visits.sealedColumns);
  // Issue 22. Before entry logs (grant-entry raises entry_refused); the webhook outbox is the
  // webhooks module's, made below, reached only when a job routes an alert to it.
  const alerts = createAlertsModule({
    database,
    audit,
    clock,
    encryptionKey,
    smtp: { url: env.SMTP_URL, from: env.SMTP_FROM },
    // Push endpoints come from browsers: the callbacks' SSRF checks apply to them too.
    pushSender: createCallbackSender({
      policy: { allowLoopback: env.WEBHOOKS_ALLOW_LOOPBACK_HTTP },
      timeoutMs: env.WEBHOOK_TIMEOUT_MS,
    }),
    vapidSubject: env.ALERTS_VAPID_SUBJECT ?? `mailto:${emailAddressOf(env.SMTP_FROM)}`,
    webhookOutbox: { queueEvent: (...args) => webhooks.service.queueEvent(...args) },
    publicOrigin: env.PUBLIC_ORIGIN,
    // Quiet hours on each site's clock; the overstay scan asks visits for stays past the limit.
    sites: sites.service.inTransaction,
    visits: visits.service,
    log: (message) => console.warn(message),
  });
  // Issue 21: screened on every gate path (grant-entry, the incoming feed's completion).
  const watchlist = createWatchlistModule({
    database,
    audit,
    clock,
    alerts: alerts.hooks,
    sealer: keys.keyring,
  });
  keys.service.register(watchlist.sealedColumns);
  const documentRules = createDocumentRulesModule({ database, audit, clock });
  // Issue 17: a gate's barrier, opened through its site agent (manually or for a granted entry).
  const barriers = createBarriersModule({
    database,
    sites: createSitesRepository(),
    audit,
    alerts: alerts.hooks,
    clock,
    settings: {
      heartbeatIntervalMs: env.BARRIER_HEARTBEAT_INTERVAL_MS,
      resultTimeoutMs: env.BARRIER_RESULT_TIMEOUT_MS,
      offlineAlertSeconds: env.BARRIER_OFFLINE_ALERT_SECONDS,
    },
  });
  const entryLogs = createEntryLogsModule({
    alerts: alerts.hooks,
    watchlist: watchlist.service,
    documentRules: documentRules.service,
    induction: induction.service,
    database,
    images: images.service,
    vehicles: approvedVehicles.service,
    users: users.service,
    audit,
    faces: faces.service,
    captures: captures.service,
    corrections: corrections.service,
    clock,
    sealer: keys.keyring,
    exportJoins: {
      ticketNumberSql: documents.service.ticketNumberSql,
      ticketWeightsSql: documents.service.ticketWeightsSql,
      discGvmSql: documents.service.discGvmSql,
    },
    places: {
      ...sites.service.inTransaction,
      onEntryLogged: (...args) => visits.service.openForEntry(...args),
      onSiteCountSql: visits.service.onSiteCountSql,
    },
    barriers: barriers.service,
    // Issue 18: what an offline decision may do.
    offlineDecisionsOf: async (tx, tenantId) =>
      (await settings.service.settingsOf(tx, tenantId)).offlineDecisions,
    ...(recordedFacts && { siteFacts: recordedFacts }),
  });
  keys.service.register(entryLogs.sealedColumns);
  keys.service.register(maskedWarningsTable(database));
  // Issue 21: a guard's override with a supervisor's one-time PIN.
  const presentEntry = entryLogPresenter(images.service);
  const overridePins = createOverridePinsModule({
    database,
    audit,
    clock,
    counters: rateLimits.store,
    overrides: entryLogs.overrides,
    encryptionKey,
    present: (role, row) => entryAsSeenBy(role, presentEntry(row)),
  });
  // Issue 18: guard devices with an offline queue; a revoked one wipes it.
  const devices = createDevicesModule({ database, audit, clock });
  // Issue 28: the sync status on either side; the sync loops themselves start in main.ts.
  const siteNode = createSiteNodeModule({ database, clock, config: env.siteNode });
  const truckList = createTruckListModule({ database, clock, sites: sites.service.inTransaction });
  // Issue 23: the site manager's reports, from hourly counts kept beside entries and visits.
  const reports = createReportsModule({
    database,
    sites: sites.service,
    audit,
    clock,
    email: alerts.email,
  });
  // Issue 17: automatic lanes decide on the server and open the boom (entries, exits, barriers).
  const anprLanes = createAnprLanesModule({
    database,
    sites: createSitesRepository(),
    barriers: barriers.service,
    entryLogs: entryLogs.service,
    vehicles: approvedVehicles.service,
    visits: visits.service,
    watchlist: watchlist.service,
    audit,
    clock,
  });
  const auditEvents = createAuditEventsModule({
    database,
    audit,
    actorNameSql: users.service.displayNameSql,
  });
  const webhooks = createWebhooksModule({
    watchlist: watchlist.service,
    // Issue 21: the document rules run on the incoming feed's completion too.
    documentRules: documentRules.service,
    induction: induction.service,
    corrections: corrections.service,
    database,
    audit,
    clock,
    encryptionKey,
    timeoutMs: env.WEBHOOK_TIMEOUT_MS,
    rotationWindowMs: env.WEBHOOK_SECRET_ROTATION_HOURS * 3_600_000,
    callbackPolicy: { allowLoopback: env.WEBHOOKS_ALLOW_LOOPBACK_HTTP },
    counters: rateLimits.store,
    onDeliveryFailed: alerts.hooks.callbackFailed,
    sites: sites.service.inTransaction,
    exits: visits.webhookExits,
    vehicles: approvedVehicles.service,
    captures: captures.service,
    sealer: keys.keyring,
  });
  keys.service.register(webhooks.sealedTable);
  keys.service.register(webhooks.sealedColumns);
  keys.service.register(webhooks.maskedWarnings);
  const anpr = createAnprModule({
    database,
    vehicles: approvedVehicles.service,
    truckList: truckList.service,
    images: images.service,
    audit,
    clock,
    offlineAlertSeconds: env.ANPR_OFFLINE_ALERT_SECONDS,
    alerts: alerts.hooks,
    sites: sites.service.inTransaction,
  });
  // Issue 28 (ADR 0009): site nodes pull master data and push the facts they recorded.
  const siteSync = createSiteSyncModule({
    database,
    audit,
    clock,
    secretBox: createSecretBox(encryptionKey),
    keyring: keys.keyring,
    objects: storedObjects,
    sites: sites.service.inTransaction,
    visits: visits.service,
    watchlist: watchlist.service,
    alerts: alerts.hooks,
    staleAfterMs: env.SITE_SYNC_STALE_AFTER_MS,
    eventsBodyLimit: env.SITE_SYNC_EVENTS_BODY_LIMIT_BYTES,
    uploadGraceDays: env.SITE_SYNC_UPLOAD_GRACE_DAYS,
  });
  // POPIA: every module holding personal data about drivers registers its provider here.
  const privacy = createPrivacyModule({
    database,
    audit,
    images: images.service,
    captures: captures.service,
    clock,
    // Approved vehicles before drivers: they find the subject's vehicles by the driver link,
    // which deleting the driver record clears.
    providers: [
      approvedVehicles.personalData,
      drivers.personalData,
      // Issue 15: before the entry logs, whose erasure clears the numbers it finds entries by.
      corrections.personalData,
      // Issue 28: site facts, found by the entry ids the entry logs link (same ids).
      siteSync.personalData,
      entryLogs.personalData,
      visits.personalData,
      documents.personalData,
      webhooks.personalData,
      // Issue 22: alerts about the subject's entries (found by the entry ids linked above).
      alerts.personalData,
      // Issue 21: watchlist entries naming the driver's ID number.
      watchlist.personalData,
      induction.personalData,
      faces.personalData,
      // Last: records above release their citations first, so erased captures can go at once.
      captures.personalData,
    ],
    // Issue 23: requests by e-mail address (staff who receive scheduled reports).
    emailProviders: [reports.emailPersonalData],
    imageRetention: [documents.personalData, entryLogs.personalData, faces.personalData],
    documentRetentionDays: env.DOCUMENT_RETENTION_DAYS,
    biometricRetentionDays: env.BIOMETRIC_RETENTION_DAYS,
    encryptionKey,
    sealer: keys.keyring,
  });
  return {
    audit,
    keys,
    auditEvents,
    rateLimits,
    tenants,
    settings,
    sessions,
    sites,
    visits,
    users,
    auth,
    mfa,
    images,
    captures,
    approvedVehicles,
    drivers,
    onboarding,
    documents,
    entryLogs,
    barriers,
    truckList,
    reports,
    webhooks,
    anpr,
    anprLanes,
    induction,
    vision,
    visionAdmission,
    faces,
    privacy,
    alerts,
    watchlist,
    documentRules,
    overridePins,
    devices,
    siteSync,
    siteNode,
  };
}

/** `Name <address>` or a bare address: the address. */
function emailAddressOf(from: string): string {
  return /<([^>]+)>/.exec(from)?.[1] ?? from.trim();
}
export type Modules = ReturnType<typeof createModules>;
