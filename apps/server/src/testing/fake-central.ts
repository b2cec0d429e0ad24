import { type KeyObject, generateKeyPairSync } from 'node:crypto';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

import {
  type SiteSyncAck,
  type SiteSyncChange,
  type SiteSyncEvent,
  siteSyncStreamKey,
} from '@boomgate/contracts/site-sync';

import { type PlainTenantKey, signSiteSyncPage, wrapKeysForNode } from '@/modules/site-sync';

type EventsAnswer = { status: number; body: unknown };

/**
 * Tests only: a stand-in for the central instance over loopback HTTP (what lies outside the site
 * node). It serves the changes it is given as signed pages and keeps the events posted to it,
 * acknowledging each gate stream's highest contiguous seq, as ADR 0009 describes central.
 */
export async function startFakeCentral({
  tenantId,
  siteId,
  token,
  tenantKeys,
}: {
  tenantId: string;
  siteId: string;
  token: string;
  /** The tenant's keys it hands out wrapped for the node (a real central's keyring, in tests). */
  tenantKeys?: () => Promise<PlainTenantKey[]>;
}) {
  const keyRequests: { have: string[] }[] = [];
  const keys = generateKeyPairSync('ed25519');
  const publicKey = keys.publicKey.export({ format: 'der', type: 'spki' }).toString('base64');
  const changes: SiteSyncChange[] = [];
  const received: SiteSyncEvent[] = [];
  const held = new Map<string, SiteSyncEvent>();
  let signingKey: KeyObject = keys.privateKey;
  let down = false;
  let nextEventsAnswer: EventsAnswer | undefined;
  const sockets = new Set<Socket>();

  function acknowledged(): Record<string, number> {
    const seqs = new Map<string, Set<number>>();
    for (const event of held.values()) {
      const stream = siteSyncStreamKey(event.gateId);
      if (!seqs.has(stream)) seqs.set(stream, new Set());
      seqs.get(stream)!.add(event.seq);
    }
    const answer: Record<string, number> = {};
    for (const [stream, set] of seqs) {
      let seq = 0;
      while (set.has(seq + 1)) seq += 1;
      answer[stream] = seq;
    }
    return answer;
  }

  async function body(request: IncomingMessage): Promise<unknown> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  }

  function send(response: ServerResponse, status: number, value: unknown) {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(value));
  }

  const server: Server = createServer((request, response) => {
    void (async () => {
      if (down) {
        request.socket.destroy();
        return;
      }
      if (request.headers.authorization !== `Bearer ${token}`)
        return send(response, 401, { error: { code: 'UNAUTHENTICATED', message: 'No.' } });
      const url = new URL(request.url ?? '/', 'http://central');
      if (request.method === 'GET' && url.pathname === '/api/site-sync/changes') {
        const since = Number(url.searchParams.get('since') ?? 0);
        const limit = Number(url.searchParams.get('limit') ?? 500);
        const page = changes.filter((change) => change.version > since).slice(0, limit);
        const highWater = changes.reduce((max, change) => Math.max(max, change.version), 0);
        return send(
          response,
          200,
          signSiteSyncPage(
            {
              tenantId,
              siteId,
              since,
              nextSince: page.at(-1)?.version ?? since,
              highWater,
              changes: page,
              generatedAt: new Date().toISOString(),
            },
            signingKey,
          ),
        );
      }
      if (request.method === 'GET' && url.pathname === '/api/site-sync/acknowledged')
        return send(response, 200, { acknowledged: acknowledged() });
      if (request.method === 'POST' && url.pathname === '/api/site-sync/keys' && tenantKeys) {
        const { nodePublicKey, have } = (await body(request)) as {
          nodePublicKey: string;
          have: string[];
        };
        keyRequests.push({ have });
        return send(response, 200, wrapKeysForNode(tenantId, nodePublicKey, await tenantKeys()));
      }
      if (request.method === 'POST' && url.pathname === '/api/site-sync/events') {
        const { events } = (await body(request)) as { events: SiteSyncEvent[] };
        received.push(...events);
        if (nextEventsAnswer) {
          const answer = nextEventsAnswer;
          nextEventsAnswer = undefined;
          return send(response, answer.status, answer.body);
        }
        const duplicates = events.filter((event) => held.has(event.id)).map((event) => event.id);
        for (const event of events) if (!held.has(event.id)) held.set(event.id, event);
        const ack: SiteSyncAck = { acknowledged: acknowledged(), duplicates, flagged: [] };
        return send(response, 200, ack);
      }
      return send(response, 404, { error: { code: 'NOT_FOUND', message: 'Not found.' } });
    })();
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    publicKey,
    /** Rows central changed, each with the next version. */
    change(entries: Omit<SiteSyncChange, 'version'>[]) {
      for (const entry of entries) changes.push({ ...entry, version: changes.length + 1 });
    },
    received,
    held,
    /** What the node said it held at each keys request. */
    keyRequests,
    /** Signs from now on with a key the node did not pin. */
    signWithAnotherKey() {
      signingKey = generateKeyPairSync('ed25519').privateKey;
    },
    signWithOwnKey() {
      signingKey = keys.privateKey;
    },
    /** The link is cut (connections dropped) or restored. */
    setDown(value: boolean) {
      down = value;
      if (value) for (const socket of sockets) socket.destroy();
    },
    answerNextEvents(answer: EventsAnswer) {
      nextEventsAnswer = answer;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
