import { createPublicKey } from 'node:crypto';
import path from 'node:path';

import { z } from 'zod';

import { MIN_PASSWORD_LENGTH } from '@boomgate/contracts/primitives';
import {
  SITE_SYNC_EVENTS_BATCH_BYTES,
  SITE_SYNC_EVENTS_BODY_LIMIT_BYTES,
  SITE_SYNC_PULL_INTERVAL_MS,
  SITE_SYNC_STALE_AFTER_MS,
} from '@boomgate/contracts/site-sync';

const EnvSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(5000),
    HOST: z.string().default('0.0.0.0'),
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .default('info'),
    DATA_DIR: z.string().default('./data'),
    DATABASE_URL: z.url().optional(),
    DATABASE_APP_URL: z.url().optional(),
    DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(20),
    DATABASE_POOL_MIN: z.coerce.number().int().min(0).max(200).default(8),
    EMBEDDED_PG_PORT: z.coerce.number().int().min(0).max(65535).default(0),
    SESSION_SECRET: z.string().min(32).optional(),
    SESSION_IDLE_TIMEOUT_MINUTES: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 60)
      .default(30),
    SESSION_ABSOLUTE_TIMEOUT_HOURS: z.coerce.number().int().min(1).max(72).default(12),
    PASSWORD_MIN_LENGTH: z.coerce
      .number()
      .int()
      .min(MIN_PASSWORD_LENGTH)
      .max(64)
      .default(MIN_PASSWORD_LENGTH),
    LOGIN_MAX_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).default(10),
    LOGIN_MAX_FAILURES_PER_IP: z.coerce.number().int().min(1).default(100),
    // Image uploads per user (or address) and route a minute; sign-ups per address an hour.
    RATE_LIMIT_UPLOADS_PER_MINUTE: z.coerce.number().int().min(1).default(120),
    RATE_LIMIT_REGISTRATIONS_PER_HOUR: z.coerce.number().int().min(1).default(30),
    TRUST_PROXY: z.string().optional(),
    ALLOWED_ORIGINS: z.string().default(''),
    // The origin users reach the app at (https://gate.example.com): its name is the Host the app
    // answers for, with ALLOWED_ORIGINS' names, localhost and IP addresses (SEC-33, Host allowlist),
    // and passkeys are bound to it (WebAuthn relying party; unset: each request's scheme and Host).
    PUBLIC_ORIGIN: z.preprocess((value) => (value === '' ? undefined : value), z.url().optional()),
    WEB_DIST_DIR: z.string().default('apps/web/dist'),
    STORAGE_DIR: z.string().optional(),
    BIOMETRIC_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(365),
    // Identity-document, licence, passport, disc, ticket and gate photos: days kept after capture.
    DOCUMENT_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(365),
    // SIGTERM: how long new requests get 503 (load balancers notice) before the listener closes.
    SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
    // SIGTERM: in-flight requests and running jobs get this long; then the process exits 1.
    SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(1000).max(300_000).default(30_000),
    VISION_THREADS: z.coerce.number().int().min(1).max(16).optional(),
    VISION_TASK_TIMEOUT_MS: z.coerce.number().int().min(1000).default(30_000),
    // Image reads (OCR, face checks and comparisons) one user may have running, and waiting.
    VISION_READS_PER_USER: z.coerce.number().int().min(1).max(64).default(2),
    VISION_QUEUE_PER_USER: z.coerce.number().int().min(0).max(256).default(8),
    // Barrier agents (issue 17): heartbeat interval (two missed: the gate is offline) and how long
    // an open waits for the device's confirmation before it is reported not opened.
    BARRIER_HEARTBEAT_INTERVAL_MS: z.coerce.number().int().min(100).max(60_000).default(5_000),
    BARRIER_RESULT_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(8_000),
    // A gate agent silent this long raises a device_offline alert (the barriers.offline-scan job).
    BARRIER_OFFLINE_ALERT_SECONDS: z.coerce.number().int().min(1).max(86_400).default(120),
    /** Issue 22: a number-plate camera silent this long (no read, no heartbeat) raises device_offline. */
    ANPR_OFFLINE_ALERT_SECONDS: z.coerce.number().int().min(1).max(86_400).default(600),
    AI_BASE_URL: z.url().optional(),
    AI_API_KEY: z.string().optional(),
    AI_MODEL: z.string().optional(),
    // fallback: asked only when local reading is weak; primary: asked first for plates and tickets
    // and over local OCR. Barcode and check-valid MRZ readings win in both.
    AI_MODE: z.enum(['fallback', 'primary']).default('fallback'),
    S3_BUCKET: z.string().min(3).optional(),
    S3_REGION: z.string().default('us-east-1'),
    S3_ENDPOINT: z.url().optional(),
    S3_ACCESS_KEY_ID: z.string().optional(),
    S3_SECRET_ACCESS_KEY: z.string().optional(),
    S3_FORCE_PATH_STYLE: z.stringbool().default(false),
    // Which processes consume jobs; every role can enqueue. `worker` serves no HTTP.
    APP_ROLE: z.enum(['api', 'worker', 'all']).default('all'),
    WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(50).default(4),
    // 32 random bytes (base64) for secrets stored encrypted; default: generated into DATA_DIR.
    ENCRYPTION_KEY: z.string().min(43).optional(),
    // Issue 26: master keys a rotation replaced, comma-separated: they only unwrap tenant keys
    // until the keys.rewrap-master job has re-wrapped them under ENCRYPTION_KEY.
    ENCRYPTION_KEY_PREVIOUS: z.string().optional(),
    // How long a process keeps a tenant's unwrapped keys before reading them again (a rotation
    // elsewhere is seen within this); the old key is erased only after it.
    KEY_CACHE_SECONDS: z.coerce.number().int().min(0).max(3600).default(30),
    WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(1000).max(60_000).default(15_000),
    WEBHOOK_SECRET_ROTATION_HOURS: z.coerce.number().int().min(0).max(720).default(24),
    // Local development and tests only: lets callbacks go to http://127.0.0.1 / localhost.
    WEBHOOKS_ALLOW_LOOPBACK_HTTP: z.stringbool().default(false),
    // Alerts (issue 22): alert e-mails over SMTP (none without SMTP_URL), and the Web Push contact.
    SMTP_URL: z.preprocess(
      (value) => (value === '' ? undefined : value),
      z.url({ protocol: /^smtps?$/ }).optional(),
    ),
    SMTP_FROM: z.string().min(3).default('Boomgate <alerts@boomgate.invalid>'),
    ALERTS_VAPID_SUBJECT: z.preprocess(
      (value) => (value === '' ? undefined : value),
      z.url({ protocol: /^(mailto|https)$/ }).optional(),
    ),
    // Issue 28 (ADR 0009): SITE_NODE=1 runs this server for one site of a tenant against a central
    // instance: master data pulled from CENTRAL_URL with SITE_TOKEN, each page verified with
    // CENTRAL_PUBLIC_KEY (base64 SPKI Ed25519, pinned at enrolment); site facts pushed back.
    SITE_NODE: z.stringbool().default(false),
    CENTRAL_URL: z.preprocess((value) => (value === '' ? undefined : value), z.url().optional()),
    SITE_TOKEN: z.preprocess((value) => (value === '' ? undefined : value), z.string().optional()),
    CENTRAL_PUBLIC_KEY: z.preprocess(
      (value) => (value === '' ? undefined : value),
      z.string().refine(isEd25519PublicKey, 'must be a base64 SPKI Ed25519 public key').optional(),
    ),
    SITE_SYNC_PULL_INTERVAL_MS: z.coerce
      .number()
      .int()
      .min(100)
      .max(3_600_000)
      .default(SITE_SYNC_PULL_INTERVAL_MS),
    // The outbox is pushed this often while there is something to send (at once after a write).
    SITE_SYNC_PUSH_INTERVAL_MS: z.coerce.number().int().min(50).max(600_000).default(2_000),
    // Longest wait between retries while central is unreachable (backoff doubles up to this).
    SITE_SYNC_MAX_BACKOFF_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
    SITE_SYNC_STALE_AFTER_MS: z.coerce
      .number()
      .int()
      .min(1_000)
      .max(86_400_000)
      .default(SITE_SYNC_STALE_AFTER_MS),
    // Central: the largest body POST /api/site-sync/events takes (a reverse proxy must allow it).
    SITE_SYNC_EVENTS_BODY_LIMIT_BYTES: z.coerce
      .number()
      .int()
      .min(64 * 1024)
      .max(256 * 1024 * 1024)
      .default(SITE_SYNC_EVENTS_BODY_LIMIT_BYTES),
    // Central: an object a node uploaded on its own (POST /api/site-sync/objects) that no row
    // names this many days after the upload (its entry never arrived) is deleted by the daily sweep.
    SITE_SYNC_UPLOAD_GRACE_DAYS: z.coerce.number().int().min(1).max(3650).default(7),
    // Node: a batch of facts is filled up to this; an entry larger than it sends its objects
    // first (POST /api/site-sync/objects). Keep it well under central's body limit.
    // Node: an acknowledged fact keeps its objects' bytes this many days, then only their digests
    // (the objects stay in the node's storage; a fact sent again reads them back).
    SITE_OUTBOX_OBJECT_RETENTION_DAYS: z.coerce.number().int().min(0).max(3650).default(7),
    SITE_SYNC_EVENTS_BATCH_BYTES: z.coerce
      .number()
      .int()
      .min(16 * 1024)
      .max(128 * 1024 * 1024)
      .default(SITE_SYNC_EVENTS_BATCH_BYTES),
  })
  .superRefine((env, context) => {
    if (!env.SITE_NODE) return;
    for (const name of ['CENTRAL_URL', 'SITE_TOKEN', 'CENTRAL_PUBLIC_KEY'] as const) {
      if (env[name] === undefined)
        context.addIssue({ code: 'custom', path: [name], message: 'is required when SITE_NODE=1' });
    }
  })
  .transform((env) => ({
    ...env,
    isProduction: env.NODE_ENV === 'production',
    dataDir: path.resolve(env.DATA_DIR),
    storageDir: path.resolve(env.STORAGE_DIR ?? path.join(env.DATA_DIR, 'storage')),
    allowedOrigins: env.ALLOWED_ORIGINS.split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
    // "loopback" or a hop count or a CIDR list; never `true` on an internet-facing listener.
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    // The optional remote reader is on only when all three are set.
    aiProvider:
      env.AI_BASE_URL && env.AI_API_KEY && env.AI_MODEL
        ? {
            baseUrl: env.AI_BASE_URL,
            apiKey: env.AI_API_KEY,
            model: env.AI_MODEL,
            mode: env.AI_MODE,
          }
        : undefined,
    // Issue 28: present only on a site node (all three checked above).
    siteNode:
      env.SITE_NODE && env.CENTRAL_URL && env.SITE_TOKEN && env.CENTRAL_PUBLIC_KEY
        ? {
            centralUrl: env.CENTRAL_URL.replace(/\/+$/, ''),
            token: env.SITE_TOKEN,
            centralPublicKey: env.CENTRAL_PUBLIC_KEY,
            pullIntervalMs: env.SITE_SYNC_PULL_INTERVAL_MS,
            pushIntervalMs: env.SITE_SYNC_PUSH_INTERVAL_MS,
            maxBackoffMs: env.SITE_SYNC_MAX_BACKOFF_MS,
            staleAfterMs: env.SITE_SYNC_STALE_AFTER_MS,
            batchBytes: env.SITE_SYNC_EVENTS_BATCH_BYTES,
            keyCacheMs: env.KEY_CACHE_SECONDS * 1000,
            outboxObjectRetentionDays: env.SITE_OUTBOX_OBJECT_RETENTION_DAYS,
          }
        : undefined,
  }));

export type SiteNodeConfig = NonNullable<Env['siteNode']>;

function isEd25519PublicKey(text: string): boolean {
  try {
    const key = createPublicKey({ key: Buffer.from(text, 'base64'), format: 'der', type: 'spki' });
    return key.asymmetricKeyType === 'ed25519';
  } catch {
    return false;
  }
}

export type Env = z.output<typeof EnvSchema>;

type TrustProxy = string | ((address: string, hop: number) => boolean) | undefined;

function parseTrustProxy(value: string | undefined): TrustProxy {
  if (value === undefined || value === '' || value === 'false') return undefined;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return (_address, hop) => hop < hops;
  }
  return value;
}

/** Fails fast and lists every invalid variable, not just the first one. */
export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  const result = EnvSchema.safeParse(source);
  if (!result.success) {
    const problems = result.error.issues.map(
      (issue) => `  ${issue.path.join('.')}: ${issue.message}`,
    );
    throw new Error(`Invalid environment:\n${problems.join('\n')}`);
  }
  return result.data;
}
