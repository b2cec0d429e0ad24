import {
  type ECDH,
  createDecipheriv,
  createECDH,
  createHmac,
  createPublicKey,
  randomBytes,
  verify,
} from 'node:crypto';
import { type IncomingHttpHeaders, createServer } from 'node:http';
import {
  type AddressInfo,
  type Server as NetServer,
  type Socket,
  createServer as createNetServer,
} from 'node:net';

import { SMTPServer } from 'smtp-server';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import {
  ALERT_RAISED_EVENT,
  AlertPushPayloadSchema,
  AlertSchema,
  type AlertStreamEvent,
  AlertStreamEventSchema,
} from '@boomgate/contracts/alerts';

import type { Session, TestApp } from '@/testing/test-app';
import { createTestApp } from '@/testing/test-app';
import {
  type Receiver,
  aTenantWithSecret,
  runJobs,
  setCallback,
  startReceiver,
} from '@/testing/webhooks';

const refuse = (session: Session, plateNumber: string) =>
  session.post('/api/auto-gate/grant-entry', { plateNumber, entryGranted: false });

// ----- A local SMTP server (smtp-server) -----------------------------------------------------

type Mail = { from: string; to: string[]; text: string };

async function startSmtp() {
  const received: Mail[] = [];
  let failWith: { code: number; message: string } | null = null;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (failWith) {
          return callback(
            Object.assign(new Error(failWith.message), { responseCode: failWith.code }),
          );
        }
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          text: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    fail(code: number | null) {
      failWith = code ? { code, message: 'Mailbox busy, try again later' } : null;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

// ----- A push service on loopback that checks VAPID and decrypts (RFC 8291/8292) ------------

type PushRequest = { headers: IncomingHttpHeaders; body: Buffer };

async function startPushService() {
  const received: PushRequest[] = [];
  let status = 201;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks) });
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    answer(next: number) {
      status = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The browser's side of a subscription: its P-256 key pair and 16-byte auth secret. */
function aBrowser(endpoint: string) {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return {
    ecdh,
    auth,
    subscription: {
      endpoint,
      expirationTime: null,
      keys: {
        p256dh: ecdh.getPublicKey().toString('base64url'),
        auth: auth.toString('base64url'),
      },
    },
  };
}

const hmac = (key: Buffer, ...data: Buffer[]) => {
  const mac = createHmac('sha256', key);
  for (const part of data) mac.update(part);
  return mac.digest();
};

/** RFC 8291 (Message Encryption for Web Push) with RFC 8188 aes128gcm, one record. */
function decryptWebPush(body: Buffer, browser: { ecdh: ECDH; auth: Buffer }): string {
  const salt = body.subarray(0, 16);
  const idLength = body.readUInt8(20);
  const serverPublicKey = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  const shared = browser.ecdh.computeSecret(serverPublicKey);
  const keyInfo = Buffer.concat([
    Buffer.from('WebPush: info\0'),
    browser.ecdh.getPublicKey(),
    serverPublicKey,
  ]);
  const ikm = hmac(hmac(browser.auth, shared), keyInfo, Buffer.from([1]));
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0'), Buffer.from([1])).subarray(
    0,
    16,
  );
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0'), Buffer.from([1])).subarray(
    0,
    12,
  );
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([
    decipher.update(ciphertext.subarray(0, ciphertext.length - 16)),
    decipher.final(),
  ]);
  // The last record ends with the delimiter 0x02, then zero padding.
  const end = padded.lastIndexOf(2);
  return padded.subarray(0, end).toString('utf8');
}

/** RFC 8292: `vapid t=<ES256 JWT>, k=<P-256 public key>`; answers the verified claims. */
function verifyVapid(authorization: string | undefined) {
  const match = /^vapid t=([^,]+),\s*k=(.+)$/.exec(authorization ?? '');
  if (!match) throw new Error(`not a VAPID authorization: ${authorization}`);
  const [, token = '', publicKey = ''] = match;
  const [header = '', claims = '', signature = ''] = token.split('.');
  const point = Buffer.from(publicKey, 'base64url');
  const key = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33, 65).toString('base64url'),
    },
    format: 'jwk',
  });
  const isValid = verify(
    'sha256',
    Buffer.from(`${header}.${claims}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  return {
    isValid,
    publicKey,
    header: JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { alg: string },
    claims: JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')) as {
      aud: string;
      exp: number;
      sub: string;
    },
  };
}

/** A TCP server that accepts connections and never says a word (an SMTP server that hangs). */
async function startSilentServer() {
  const sockets: Socket[] = [];
  const server: NetServer = createNetServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    connections: () => sockets.length,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const jobsOf = (t: TestApp, task: string) =>
  t.ownerQuery<{ attempts: number; last_error: string | null }>(
    'select attempts, last_error from graphile_worker.jobs where task_identifier = $1',
    [task],
  );

describe('alert channels', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let pushService: Awaited<ReturnType<typeof startPushService>>;
  let receiver: Receiver;
  beforeAll(async () => {
    smtp = await startSmtp();
    pushService = await startPushService();
    receiver = await startReceiver();
    t = await createTestApp({
      env: {
        SMTP_URL: smtp.url,
        SMTP_FROM: 'Boomgate Alerts <alerts@gate.example.com>',
        WEBHOOKS_ALLOW_LOOPBACK_HTTP: 'true',
        WEBHOOK_TIMEOUT_MS: '2000',
      },
    });
  });
  beforeEach(async () => {
    // Channel jobs of earlier tests (their tenants' alerts) must not run into this one.
    await t.ownerQuery('delete from graphile_worker._private_jobs');
    smtp.received.length = 0;
    smtp.fail(null);
    pushService.received.length = 0;
    pushService.answer(201);
    receiver.received.length = 0;
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
    await pushService.close();
    await receiver.close();
  });

  async function routeTo(admin: Session, channels: string[], extra: Record<string, unknown> = {}) {
    const response = await admin.patch('/api/settings/alerts', {
      routes: [{ kind: 'entry_refused', siteId: null, channels }],
      ...extra,
    });
    expect(response.statusCode).toBe(200);
  }

  it('e-mails the recipients through the SMTP server', async () => {
    const admin = await t.registerTenant();
    await routeTo(admin, ['email'], { emailRecipients: ['control@mine.example.com'] });

    expect((await refuse(admin, 'CA123456')).statusCode).toBe(201);
    await runJobs(t);

    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received;
    expect(mail?.from).toBe('alerts@gate.example.com');
    expect(mail?.to).toEqual(['control@mine.example.com']);
    expect(mail?.text).toContain('Subject: [Boomgate] Entry refused: CA123456');
    expect(mail?.text).toContain('Entry refused for CA123456 (guard refused).');
  });

  it('retries a failing channel through the queue and then delivers', async () => {
    const admin = await t.registerTenant();
    await routeTo(admin, ['email'], { emailRecipients: ['control@mine.example.com'] });
    smtp.fail(451);

    expect((await refuse(admin, 'GP12XY')).statusCode).toBe(201);
    await runJobs(t);

    const [failed] = await jobsOf(t, 'alerts.email');
    expect(failed?.attempts).toBe(1);
    expect(failed?.last_error).toContain('Mailbox busy');
    expect(smtp.received).toEqual([]);

    smtp.fail(null);
    // The queue's back-off: make the retry due now instead of waiting for it.
    await t.ownerQuery(
      `update graphile_worker._private_jobs set run_at = now() where task_id = (select id from graphile_worker._private_tasks where identifier = 'alerts.email')`,
    );
    await runJobs(t);
    expect(smtp.received).toHaveLength(1);
    expect(await jobsOf(t, 'alerts.email')).toEqual([]);
  });

  it('decides at the gate without waiting for a channel that hangs', async () => {
    const silent = await startSilentServer();
    const hanging = await createTestApp({ env: { SMTP_URL: silent.url } });
    try {
      const admin = await hanging.registerTenant();
      await routeTo(admin, ['email'], { emailRecipients: ['control@mine.example.com'] });

      const refused = await refuse(admin, 'MP77QQ');

      // The decision is stored and answered with no connection to the mail server at all: the
      // e-mail waits in the queue.
      expect(refused.statusCode).toBe(201);
      expect(silent.connections()).toBe(0);
      const queued = await hanging.ownerQuery(
        `select 1 from graphile_worker.jobs where task_identifier = 'alerts.dispatch'`,
      );
      expect(queued).toHaveLength(1);
    } finally {
      await hanging.close();
      await silent.close();
    }
  });

  it('sends the alert through the signed webhook outbox', async () => {
    const tenant = await aTenantWithSecret(t);
    await setCallback(tenant.admin, receiver.url);
    await routeTo(tenant.admin, ['webhook']);

    const refused = await refuse(tenant.admin, 'NC33RT');
    await runJobs(t);
    await runJobs(t);

    expect(receiver.received).toHaveLength(1);
    const [request] = receiver.received;
    const verified = new Webhook(tenant.secret).verify(
      request?.body ?? '',
      request?.headers as Record<string, string>,
    ) as { type: string; data: unknown };
    expect(verified.type).toBe(ALERT_RAISED_EVENT);
    expect(AlertSchema.parse(verified.data)).toMatchObject({
      kind: 'entry_refused',
      plateNumber: 'NC33RT',
      entryId: refused.json<{ id: string }>().id,
    });
  });

  it('pushes to a subscribed browser, VAPID-signed and encrypted (aes128gcm)', async () => {
    const admin = await t.registerTenant();
    await routeTo(admin, ['push']);
    const browser = aBrowser(`${pushService.origin}/push/${randomBytes(8).toString('hex')}`);
    expect(
      (await admin.post('/api/alerts/push-subscriptions', browser.subscription)).statusCode,
    ).toBe(201);
    const { publicKey } = (await admin.get('/api/alerts/push-key')).json<{ publicKey: string }>();

    await refuse(admin, 'WC55PP');
    await runJobs(t);
    await runJobs(t);

    expect(pushService.received).toHaveLength(1);
    const [request] = pushService.received as [PushRequest];
    expect(request.headers['content-encoding']).toBe('aes128gcm');
    expect(Number(request.headers.ttl)).toBeGreaterThan(0);
    const vapid = verifyVapid(request.headers.authorization);
    expect(vapid.isValid).toBe(true);
    expect(vapid.header.alg).toBe('ES256');
    expect(vapid.publicKey).toBe(publicKey);
    expect(vapid.claims).toMatchObject({
      aud: pushService.origin,
      sub: 'mailto:alerts@gate.example.com',
    });
    // The payload is readable only with the browser's private key and auth secret.
    expect(request.body.toString('utf8')).not.toContain('WC55PP');
    const payload = AlertPushPayloadSchema.parse(JSON.parse(decryptWebPush(request.body, browser)));
    expect(payload).toMatchObject({
      title: 'Entry refused',
      body: 'Entry refused for WC55PP (guard refused).',
      kind: 'entry_refused',
      url: '/alerts',
    });
  });

  it('forgets a subscription the push service calls gone', async () => {
    const admin = await t.registerTenant();
    await routeTo(admin, ['push']);
    const browser = aBrowser(`${pushService.origin}/push/gone`);
    await admin.post('/api/alerts/push-subscriptions', browser.subscription);
    pushService.answer(410);

    await refuse(admin, 'LP66MM');
    await runJobs(t);
    await runJobs(t);

    expect(pushService.received).toHaveLength(1);
    const left = await t.ownerQuery('select 1 from alert_push_subscriptions where tenant_id = $1', [
      admin.body.tenant.id,
    ]);
    expect(left).toEqual([]);
    expect(await jobsOf(t, 'alerts.push')).toEqual([]);
  });

  describe('the bell (server-sent events)', () => {
    let origin: string;
    beforeAll(async () => {
      origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
    });

    /** Opens GET /api/alerts/stream; `next()` answers the next `unread` event (2 s at most). */
    async function openStream(session: Session) {
      const controller = new AbortController();
      const response = await fetch(`${origin}/api/alerts/stream`, {
        headers: { cookie: session.cookie, accept: 'text/event-stream' },
        signal: controller.signal,
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/event-stream');
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      const decoder = new TextDecoder();
      let buffered = '';
      async function next(): Promise<AlertStreamEvent> {
        const deadline = AbortSignal.timeout(2000);
        for (;;) {
          const boundary = buffered.indexOf('\n\n');
          if (boundary >= 0) {
            const block = buffered.slice(0, boundary);
            buffered = buffered.slice(boundary + 2);
            const data = /^data: (.*)$/m.exec(block)?.[1];
            if (/^event: unread$/m.test(block) && data) {
              return AlertStreamEventSchema.parse(JSON.parse(data));
            }
            continue;
          }
          const chunk = await Promise.race([
            reader.read(),
            new Promise<never>((_, reject) =>
              deadline.addEventListener('abort', () =>
                reject(new Error('no bell update within 2 s')),
              ),
            ),
          ]);
          if (chunk.done) throw new Error('stream ended');
          buffered += decoder.decode(chunk.value, { stream: true });
        }
      }
      return { next, close: () => controller.abort() };
    }

    it('updates the bell within 2 s, only for the alert’s own tenant', async () => {
      const own = await t.registerTenant();
      const other = await t.registerTenant();
      const ownStream = await openStream(own);
      const otherStream = await openStream(other);
      try {
        expect(await ownStream.next()).toEqual({ unreadCount: 0 });
        expect(await otherStream.next()).toEqual({ unreadCount: 0 });

        await refuse(own, 'FS10AB');
        const update = await ownStream.next();
        expect(update.unreadCount).toBe(1);
        expect(update.alert).toMatchObject({ kind: 'entry_refused', plateNumber: 'FS10AB' });

        // The other tenant's first event after connecting is its own alert, never this one.
        await refuse(other, 'FS20CD');
        const otherUpdate = await otherStream.next();
        expect(otherUpdate).toMatchObject({ unreadCount: 1, alert: { plateNumber: 'FS20CD' } });

        await own.post(`/api/alerts/${update.alert?.id}/acknowledge`);
        expect(await ownStream.next()).toMatchObject({ unreadCount: 0 });
      } finally {
        ownStream.close();
        otherStream.close();
      }
    });

    it('refuses the stream to a guard', async () => {
      const admin = await t.registerTenant();
      const guard = await t.createSignedInUser(admin, 'security_guard');
      const response = await fetch(`${origin}/api/alerts/stream`, {
        headers: { cookie: guard.cookie, accept: 'text/event-stream' },
      });
      expect(response.status).toBe(403);
    });
  });
});
