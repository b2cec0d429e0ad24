import { randomUUID } from 'node:crypto';

import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { sampleFace } from '@boomgate/vision/testing';

import { type Client, sleep } from '../cluster/load';

import { PASSWORD, type SitePair, ok, startSitePair, statusOf, waitFor } from './harness';

/**
 * test:site-sync (issue 28, ADR 0009): central and a site node on one machine — two real server
 * processes, each on its own embedded PostgreSQL — with a loopback TCP proxy as the link. The site
 * records entries and exits; the link is cut while both sides carry on (central revokes an approval
 * and adds a watchlist block, the site keeps deciding); then it is restored and both sides must
 * agree: the same entries and exits, none twice, none lost, central's changes at the site, the
 * site's stale decisions flagged at central, and the cut shown on both sides while it lasted.
 * During the cut the site also reads a plate (a capture with its sealed object), compares a face
 * and saves an entry with a correction: central must show each of them, and the site's audit
 * events, exactly once (issue 28c), and open the capture's object with the tenant's key.
 */

type EntryDetail = {
  entry: { driverLicenseImage: string | null };
  documents: { citedAs: string; id: string }[];
  captures: { captureId: string | null; citedAs: string; image: string | null }[];
  corrections: { id: string; typedValue: string }[];
  faceComparison: { id: string } | null;
  auditTrail: { id: string; action: string }[];
};
type AuditEvent = {
  id: string;
  action: string;
  targetId: string | null;
  occurredAt: string;
  details: Record<string, unknown> | null;
};
type Entry = {
  id: string;
  plateNumber: string;
  entryGranted: boolean;
  warnings: { code: string; rule?: string }[];
  driverLicenseImage?: string | null;
};

let pair: SitePair;
let link: SitePair['link'];
let atCentral: Client;
let atNode: Client;
let siteId: string;
let gateId: string;
let tokenId: string;
let username: string;
let withEvidence: Awaited<ReturnType<typeof enterWithEvidence>>;
const report: string[] = [];

/** Every entry the caller sees (one page: the harness records far fewer than its limit). */
async function allEntries(api: Client): Promise<Entry[]> {
  const entries = await ok<Entry[]>(api, 'GET', '/api/entry-logs?limit=100');
  if (entries.length >= 100) throw new Error('more entries than one page: raise the limit');
  return entries;
}

async function exitedAt(api: Client, entryId: string): Promise<string | null> {
  const visit = await api.call('visit', 'GET', `/api/entry-logs/${entryId}/visit`);
  if (visit.status === 404) return null;
  return (visit.body as { exitedAt: string | null }).exitedAt;
}

async function enter(plateNumber: string) {
  return ok<Entry>(atNode, 'POST', '/api/auto-gate/grant-entry', { plateNumber, gateId });
}
async function exit(entryId: string) {
  return ok(atNode, 'POST', `/api/entry-logs/${entryId}/exit`, { gateId });
}
const plate = (prefix: string) => `${prefix}${randomUUID().slice(0, 4).toUpperCase()}GP`;

beforeAll(async () => {
  pair = await startSitePair();
  ({ link, atCentral, atNode, siteId, gateId, tokenId, username } = pair);
}, 240_000);

afterAll(async () => {
  await pair?.stop();
  if (report.length > 0) process.stdout.write(`\n${report.join('\n')}\n`);
});

/**
 * At the site: a plate read (a capture), a face compared (two photos) and an entry that cites the
 * capture, claims the comparison and carries a correction.
 */
async function enterWithEvidence() {
  const jpeg = await sharp({
    create: { width: 96, height: 48, channels: 3, background: '#ddd' },
  })
    .jpeg()
    .toBuffer();
  const read = await ok<{ captureId: string }>(atNode, 'POST', '/api/ocr', {
    type: 'plate',
    image: `data:image/jpeg;base64,${jpeg.toString('base64')}`,
  });
  const face = `data:image/jpeg;base64,${(await sampleFace('left')).toString('base64')}`;
  const compared = await ok<{ comparisonId: string }>(atNode, 'POST', '/api/face-comparison', {
    image1: face,
    image2: face,
  });
  // Issue 28e: an ID document scanned with its image inline, and a licence image sent inline
  // with the entry (neither is a capture): both travel with the entry to central.
  const inline = `data:image/jpeg;base64,${jpeg.toString('base64')}`;
  const document = await ok<{ id: string }>(atNode, 'POST', '/api/identity-document', {
    identityNumber: '8001015009087',
    surname: 'NKOSI',
    givenNames: 'Sipho',
    sourceImageFront: inline,
  });
  const plateNumber = plate('EV');
  const entry = await ok<Entry>(atNode, 'POST', '/api/auto-gate/grant-entry', {
    plateNumber,
    gateId,
    plateImageCaptureId: read.captureId,
    faceComparisonId: compared.comparisonId,
    identityDocumentId: document.id,
    driverLicenseImage: inline,
    corrections: [
      {
        captureId: read.captureId,
        readingType: 'plate',
        field: 'plateNumber',
        typedValue: plateNumber,
      },
    ],
  });
  return {
    entry,
    captureId: read.captureId,
    comparisonId: compared.comparisonId,
    documentId: document.id,
  };
}

describe('site node and central (issue 28)', () => {
  const before: Entry[] = [];
  const during: Entry[] = [];
  let revokedPlate: string;
  let blockedPlate: string;

  it('the node takes the tenant from central and the admin signs in at the site', async () => {
    const approved = plate('AP');
    revokedPlate = plate('RV');
    for (const plateNumber of [approved, revokedPlate])
      await ok(atCentral, 'POST', '/api/approved-vehicles', {
        plateNumber,
        driverName: 'Sipho Dlamini',
      });

    await waitFor('the admin signs in at the site', async () => {
      const login = await atNode.call('login', 'POST', '/api/auth/login', {
        username,
        password: PASSWORD,
      });
      return login.status === 200;
    });
    const status = await statusOf(atNode);
    expect(status).toMatchObject({ mode: 'site_node', offline: false });
    expect(status.lastDownSyncAt).not.toBeNull();
  });

  it('records entries and exits at the site, acknowledged by central', async () => {
    for (let i = 0; i < 6; i += 1) before.push(await enter(plate('IN')));
    for (const entry of before.slice(0, 3).filter((e) => e.entryGranted)) await exit(entry.id);

    await waitFor('central acknowledges every fact', async () => {
      const status = await statusOf(atNode);
      return status.oldestUnacknowledgedAt === null && status.lastUpSyncAt !== null;
    });
  });

  it('keeps deciding at the site while the link is cut, and says so on both sides', async () => {
    await link.cut();
    const cutAt = Date.now();
    // Central carries on: an approval revoked, a plate blocked.
    const vehicles = await ok<{ id: string; plateNumber: string }[]>(
      atCentral,
      'GET',
      '/api/approved-vehicles',
    );
    const revoked = vehicles.find((vehicle) => vehicle.plateNumber === revokedPlate)!;
    await ok(atCentral, 'DELETE', `/api/approved-vehicles/${revoked.id}`);
    blockedPlate = plate('BL');
    await ok(atCentral, 'POST', '/api/watchlist', {
      kind: 'plate',
      value: blockedPlate,
      reason: 'Reported stolen',
      severity: 'block',
    });
    await sleep(500);

    // The site carries on, from what it last had.
    for (let i = 0; i < 3; i += 1) during.push(await enter(plate('CT')));
    during.push(await enter(revokedPlate));
    const blockedAtSite = await enter(blockedPlate);
    during.push(blockedAtSite);
    expect(blockedAtSite.entryGranted).toBe(true); // the site did not know yet
    for (const entry of [...before.slice(3), ...during.slice(0, 2)].filter((e) => e.entryGranted))
      await exit(entry.id);
    withEvidence = await enterWithEvidence();

    const offline = await waitFor('the node says it is offline', async () => {
      const status = await statusOf(atNode);
      return status.offline ? status : undefined;
    });
    report.push(`site-sync: node offline ${Date.now() - cutAt} ms after the cut`);
    expect(offline.oldestUnacknowledgedAt).not.toBeNull();
    // Central's side of the cut: the node's token has not synced since the cut.
    const tokens = await ok<{ id: string; lastSyncAt: string | null }[]>(
      atCentral,
      'GET',
      `/api/sites/${siteId}/node-tokens`,
    );
    const token = tokens.find((candidate) => candidate.id === tokenId)!;
    expect(new Date(token.lastSyncAt!).getTime()).toBeLessThanOrEqual(cutAt);
  });

  it('agrees after the link is back: same entries and exits, none twice, none lost', async () => {
    await link.restore();
    const restoredAt = Date.now();
    await waitFor('the node is in sync again', async () => {
      const status = await statusOf(atNode);
      return !status.offline && status.oldestUnacknowledgedAt === null;
    });
    report.push(`site-sync: back in sync ${Date.now() - restoredAt} ms after the link returned`);

    const atSite = await allEntries(atNode);
    const atHead = await allEntries(atCentral);
    const siteIds = atSite.map((entry) => entry.id);
    const headIds = atHead.map((entry) => entry.id);
    expect(new Set(siteIds).size).toBe(siteIds.length);
    expect(new Set(headIds).size).toBe(headIds.length);
    expect([...headIds].sort()).toEqual([...siteIds].sort());
    expect(siteIds).toEqual(expect.arrayContaining([...before, ...during].map((e) => e.id)));
    for (const entry of atSite)
      expect(await exitedAt(atCentral, entry.id)).toBe(await exitedAt(atNode, entry.id));
    report.push(`site-sync: ${siteIds.length} entries on both sides`);
  });

  it('brings the capture, face comparison, correction and audit events recorded during the cut', async () => {
    const detail = await ok<EntryDetail>(
      atCentral,
      'GET',
      `/api/entry-logs/${withEvidence.entry.id}`,
    );
    const plateImages = detail.captures.filter((capture) => capture.citedAs === 'plateImage');
    expect(plateImages).toEqual([expect.objectContaining({ captureId: withEvidence.captureId })]);
    expect(detail.faceComparison).toMatchObject({ id: withEvidence.comparisonId });
    expect(detail.corrections).toHaveLength(1);
    expect(detail.corrections[0]).toMatchObject({ typedValue: withEvidence.entry.plateNumber });
    // The capture's object reached central under the same key and opens there (the same tenant key).
    const image = await atCentral.call('image', 'GET', plateImages[0]!.image!);
    expect(image.status).toBe(200);
    // The licence image the entry carried inline and the ID document it cites came with it.
    expect(detail.entry.driverLicenseImage).toBe(withEvidence.entry.driverLicenseImage);
    const licence = await atCentral.call('image', 'GET', detail.entry.driverLicenseImage!);
    expect(licence.status).toBe(200);
    expect(detail.documents).toEqual([
      expect.objectContaining({ citedAs: 'identityDocument', id: withEvidence.documentId }),
    ]);
    // The site's audit events, each once, at the site's time and saying where they came from.
    const siteEvents = await ok<AuditEvent[]>(atNode, 'GET', '/api/audit-events?limit=500');
    const headEvents = await ok<AuditEvent[]>(atCentral, 'GET', '/api/audit-events?limit=500');
    const headIds = headEvents.map((event) => event.id);
    expect(new Set(headIds).size).toBe(headIds.length);
    const granted = siteEvents.filter(
      (event) => event.action === 'entry.granted' && event.targetId === withEvidence.entry.id,
    );
    expect(granted).toHaveLength(1);
    expect(granted[0]!.details).toMatchObject({ faceComparisonId: withEvidence.comparisonId });
    for (const event of siteEvents.filter((candidate) => !candidate.action.startsWith('site.'))) {
      const copies = headEvents.filter((candidate) => candidate.id === event.id);
      expect(copies, event.action).toHaveLength(1);
      expect(copies[0]!.occurredAt).toBe(event.occurredAt);
      expect(copies[0]!.details).toMatchObject({ siteSync: { siteId } });
    }
    report.push(`site-sync: ${siteEvents.length} audit events of the site shown once at central`);
  });

  it('brings central’s changes to the site, and flags the site’s stale decisions at central', async () => {
    const refused = await enter(blockedPlate);
    expect(refused).toMatchObject({ entryGranted: false });
    const vehicles = await ok<{ plateNumber: string }[]>(atNode, 'GET', '/api/approved-vehicles');
    expect(vehicles.map((vehicle) => vehicle.plateNumber)).not.toContain(revokedPlate);

    const atHead = await waitFor('central holds the last entry', async () => {
      const entries = await allEntries(atCentral);
      return entries.some((entry) => entry.id === refused.id) ? entries : undefined;
    });
    // ADR 0009: a rule warning `site_decided_on_stale_data` on central's copy of the entry.
    const flagged = (id: string) =>
      atHead
        .find((entry) => entry.id === id)!
        .warnings.some((warning) => warning.rule === 'site_decided_on_stale_data');
    const [revokedAtSite, blockedAtSite] = during.slice(-2);
    expect(flagged(blockedAtSite!.id)).toBe(true);
    if (revokedAtSite!.entryGranted) expect(flagged(revokedAtSite!.id)).toBe(true);
    for (const entry of [...before, ...during.slice(0, 3)]) expect(flagged(entry.id)).toBe(false);
  });
});
