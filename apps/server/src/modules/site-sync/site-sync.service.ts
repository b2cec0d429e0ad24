import { createHash, generateKeyPairSync } from 'node:crypto';

import type { EntryWarning } from '@boomgate/contracts/entry-checks';
import {
  type CreateSiteNodeToken,
  type CreatedSiteNodeToken,
  type SiteNodeToken,
  type SiteSyncAck,
  type SiteSyncAcknowledged,
  type SiteSyncChangesPage,
  type SiteSyncChangesQuery,
  type SiteSyncEvent,
  type SiteSyncEventsBatch,
  type SiteSyncKeys,
  type SiteSyncKeysRequest,
  type SiteSyncObject,
  type SiteSyncObjectStored,
  type SiteSyncStatus,
  siteSyncStreamKey,
} from '@boomgate/contracts/site-sync';

import type { RaiseAlert } from '@/modules/alerts';
import type { AuditService } from '@/modules/audit';
import { insertSiteEntry } from '@/modules/entry-logs';
import type { Actor } from '@/modules/sessions';
import { findGate } from '@/modules/sites';
import type { VisitsService } from '@/modules/visits';
import type { WatchlistService } from '@/modules/watchlist';
import type { Clock } from '@/platform/clock';
import type { SecretBox } from '@/platform/crypto';
import type { Database, DbExecutor } from '@/platform/db';
import { AppError } from '@/platform/errors';
import { newId, newToken } from '@/platform/ids';
import { OBJECT_HEADER_BYTES, isSealedObject, readObjectHeader } from '@/platform/sealing';
import type { ObjectStorage } from '@/platform/storage';

import {
  type SiteAuditPayload,
  type SiteCapturePayload,
  type SiteCorrectionPayload,
  type SiteEntryPayload,
  type SiteExitPayload,
  type SiteFaceComparisonPayload,
  parseSiteAuditPayload,
  parseSiteCapturePayload,
  parseSiteCorrectionPayload,
  parseSiteEntryPayload,
  parseSiteExitPayload,
  parseSiteFaceComparisonPayload,
} from './site-facts';
import {
  type RawObjects,
  applyAudit,
  applyCapture,
  applyCorrection,
  applyEntryAttachments,
  applyFaceComparison,
  captureObject,
  citeSiteCaptures,
  entryAttachments,
  entryImageKeys,
  isEntryObjectKey,
  linkFaceComparison,
  storedCapturePayload,
  storedEntryPayload,
} from './site-facts-apply';
import { type PlainTenantKey, keySetOf, wrapKeysForNode } from './site-sync-keys';
import { sitePayloadHash } from './site-payload-hash';
import { dataKeyVersionsOf } from './site-sealed-versions';
import { recordUpload, recordUploadAgain } from './site-sync.uploads';
import { signSiteSyncPage } from './site-sync-signature';
import type { SiteSyncRepository } from './site-sync.repository';
import type { SiteNodeTokenRow } from './site-sync.table';

/** The site node a request comes from: what its token names. */
export type SiteNode = { tenantId: string; tokenId: string; siteId: string };

export type SiteSyncServiceDeps = {
  database: Pick<Database, 'withTenant' | 'withoutTenant'>;
  repository: SiteSyncRepository;
  audit: Pick<AuditService, 'record'>;
  clock: Clock;
  /** Seals each tenant's signing key (the master key, platform/crypto.ts). */
  secretBox: SecretBox;
  /** The tenants' keys in clear, to wrap for a node (issue 26's keyring). */
  keyring: {
    liveKeys(tenantId: string): Promise<PlainTenantKey[]>;
    holdDataKeys(tx: DbExecutor, tenantId: string): Promise<number[]>;
    oldestLiveDataKey(tx: DbExecutor, tenantId: string): Promise<number>;
  };
  /**
   * The storage as it is (not the sealing wrapper): a capture's object arrives sealed. `getRange`
   * and `delete` let a failed batch remove the objects it stored (never one held before it).
   */
  objects: Pick<ObjectStorage, 'put' | 'getRange' | 'delete'>;
  sites: { visibleSite(tx: DbExecutor, actor: Actor, siteId: string): Promise<unknown> };
  visits: Pick<VisitsService, 'openForSiteEntry' | 'closeForSiteExit'>;
  watchlist: Pick<WatchlistService, 'screen'>;
  alerts: { raiseAlert: RaiseAlert };
  /** SITE_SYNC_STALE_AFTER_MS: a node silent for longer is shown as not syncing (`stale`). */
  staleAfterMs: number;
};

export type SiteSyncService = ReturnType<typeof createSiteSyncService>;

/** A fact's payload as read by `validate`: a capture carries its decoded object. */
type Parsed =
  | SiteEntryPayload
  | SiteExitPayload
  | { capture: SiteCapturePayload; bytes: Buffer | null }
  | SiteFaceComparisonPayload
  | SiteCorrectionPayload
  | SiteAuditPayload;

/** The readers of the facts that are rows of the site's own tables, by kind. */
const ROW_PARSERS = {
  capture: parseSiteCapturePayload,
  face_comparison: parseSiteFaceComparisonPayload,
  correction: parseSiteCorrectionPayload,
  audit: parseSiteAuditPayload,
} as const;

/** A batch whose first seq for a stream skips one: the node resends from what central holds. */
export class SiteSyncGapError extends Error {
  constructor(
    readonly stream: string,
    readonly acknowledged: Record<string, number>,
    message: string,
  ) {
    super(message);
    this.name = 'SiteSyncGapError';
  }
}

/**
 * A batch naming, as a new fact, a seq central already holds under another id (a node restored
 * from a backup older than what central acknowledged): refused whole, nothing overwritten; the
 * node renumbers `reused` and what follows past central's seq and resends.
 */
export class SiteSyncSeqReusedError extends SiteSyncGapError {
  constructor(
    stream: string,
    acknowledged: Record<string, number>,
    readonly reused: { id: string; stream: string; seq: number }[],
    message: string,
  ) {
    super(stream, acknowledged, message);
    this.name = 'SiteSyncSeqReusedError';
  }
}

export const hashSiteToken = (token: string) => createHash('sha256').update(token).digest('hex');

const tokenNotFound = () => new AppError('NOT_FOUND', 'Node token not found.');

/** The rule warning of an entry a site granted under master data central had already changed. */
export const STALE_DECISION_RULE = 'site_decided_on_stale_data';
export const SITE_SYNC_SOURCE = 'site_sync';

/** A token as the Sites screen shows it; `stale` when its node has been silent too long at `now`. */
export const toSiteNodeToken = (
  row: SiteNodeTokenRow,
  now: Date,
  staleAfterMs: number,
): SiteNodeToken => ({
  id: row.id,
  siteId: row.siteId,
  name: row.name,
  createdAt: row.createdAt.toISOString(),
  revokedAt: row.revokedAt?.toISOString() ?? null,
  lastSyncAt: row.lastSyncAt?.toISOString() ?? null,
  stale:
    !row.revokedAt &&
    row.lastSyncAt !== null &&
    now.getTime() - row.lastSyncAt.getTime() > staleAfterMs,
});

/** What central keeps of a fact's payload: objects as digests (they go to storage), never bytes. */
function storedPayloadOf(event: SiteSyncEvent, parsed: Parsed | undefined) {
  if (event.kind === 'capture')
    return storedCapturePayload(event.payload, (parsed as { bytes: Buffer | null }).bytes);
  if (event.kind === 'entry') return storedEntryPayload(event.payload);
  return event.payload;
}

/** The objects a fact says the site no longer held when it sent it (ADR 0009). */
function objectsMissing(event: SiteSyncEvent): string[] {
  const missing = event.payload.objects_missing;
  return Array.isArray(missing) ? missing.filter((key) => typeof key === 'string') : [];
}

const maxDate = (dates: (Date | null)[]) =>
  dates.reduce<Date | null>(
    (latest, date) => (date && (!latest || date > latest) ? date : latest),
    null,
  );

/** The oldest data key version a node may still send (`holdDataKeys`'s versions). */
const oldestOpen = (open: number[]) => (open.length > 0 ? Math.min(...open) : 1);

export function createSiteSyncService({
  database,
  repository,
  audit,
  clock,
  secretBox,
  keyring,
  objects,
  sites,
  visits,
  watchlist,
  alerts,
  staleAfterMs,
}: SiteSyncServiceDeps) {
  const keyContext = (tenantId: string) => `site-sync-signing:${tenantId}`;
  /** Opened private keys per tenant (PKCS#8 base64): opening is cheap, but pages are frequent. */
  const privateKeys = new Map<string, string>();

  /** The tenant's signing key pair: made and sealed once, at its first use. */
  async function signingKey(tx: DbExecutor, tenantId: string) {
    let row = await repository.findSigningKey(tx, tenantId);
    if (!row) {
      const { publicKey, privateKey } = generateKeyPairSync('ed25519');
      await repository.insertSigningKey(tx, {
        tenantId,
        publicKey: publicKey.export({ format: 'der', type: 'spki' }).toString('base64'),
        privateKeySealed: secretBox.seal(
          privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
          keyContext(tenantId),
        ),
        createdAt: clock.now(),
      });
      row = await repository.findSigningKey(tx, tenantId);
      if (!row) throw new Error('site-sync: the signing key was not stored');
    }
    const sealed = row.privateKeySealed;
    return {
      publicKey: row.publicKey,
      privateKey: () => {
        let opened = privateKeys.get(tenantId);
        if (!opened) {
          opened = secretBox.open(sealed, keyContext(tenantId));
          privateKeys.set(tenantId, opened);
        }
        return opened;
      },
    };
  }

  /**
   * ADR 0009 "Conflicts": an entry the site granted is checked against central's master data as
   * it stood at the site's time. A change central had made before then that refuses it (the
   * approval revoked, a watchlist block) makes the entry stale: kept, flagged and alerted.
   */
  async function staleReasons(
    tx: DbExecutor,
    tenantId: string,
    entry: SiteEntryPayload,
    siteRecordedAt: Date,
  ): Promise<string[]> {
    if (!entry.entry_granted) return [];
    const reasons: string[] = [];
    const siteVersion =
      entry.site_sync_version === undefined
        ? ''
        : ` (the site had version ${entry.site_sync_version})`;
    if (entry.vehicle_approved) {
      const vehicle = await repository.vehicleByPlate(tx, tenantId, entry.plate_number);
      const siteDay = siteRecordedAt.toISOString().slice(0, 10);
      const refuses =
        vehicle &&
        (!vehicle.isActive ||
          vehicle.proposal === 'register' ||
          (vehicle.approvedUntil !== null && vehicle.approvedUntil < siteDay));
      if (vehicle && refuses && vehicle.changedAt <= siteRecordedAt) {
        reasons.push(
          `The approval of ${entry.plate_number} was withdrawn centrally at ${vehicle.changedAt.toISOString()} ` +
            `(central version ${vehicle.version})${siteVersion}.`,
        );
      }
      const deletion = vehicle
        ? null
        : await repository.vehicleDeletion(tx, tenantId, entry.plate_number, siteRecordedAt);
      if (deletion) {
        reasons.push(
          `The approval of ${entry.plate_number} was deleted centrally at ${deletion.deletedAt.toISOString()} ` +
            `(central version ${deletion.version})${siteVersion}.`,
        );
      }
    }
    const idNumber =
      entry.driver_id_number && /^[A-Za-z0-9]{6,20}$/.test(entry.driver_id_number)
        ? entry.driver_id_number
        : null;
    const screening = await watchlist.screen(tx, tenantId, {
      plateNumbers: [entry.plate_number, ...(entry.trailer_plates ?? [])],
      idNumber,
      company: entry.transport_name ?? null,
    });
    const blocks = screening.hits.filter((hit) => hit.severity === 'block');
    const stamps = await repository.watchlistStamps(
      tx,
      tenantId,
      blocks.map((hit) => hit.watchlistEntryId),
    );
    for (const hit of blocks) {
      const stamp = stamps.find((row) => row.id === hit.watchlistEntryId);
      if (!stamp || stamp.changedAt > siteRecordedAt) continue;
      reasons.push(
        `A watchlist block on ${hit.kind === 'plate' ? 'the plate' : hit.kind === 'company' ? 'the company' : 'the ID number'} ` +
          `was added centrally at ${stamp.changedAt.toISOString()} (central version ${stamp.version})${siteVersion}.`,
      );
    }
    return reasons;
  }

  /** Stores a site's entry as central's entry log (the site's id), with its visit and flags. */
  async function applyEntry(
    tx: DbExecutor,
    objects: RawObjects,
    node: SiteNode,
    event: SiteSyncEvent,
    entry: SiteEntryPayload,
    stale: string[],
    receivedAt: Date,
  ) {
    const siteRecordedAt = new Date(event.siteRecordedAt);
    const provenance: EntryWarning = {
      code: 'rule_warning',
      severity: 'info',
      source: SITE_SYNC_SOURCE,
      rule: 'site_recorded',
      message:
        `Decided at the site node (site ${node.siteId}) at ${siteRecordedAt.toISOString()}, ` +
        `received centrally at ${receivedAt.toISOString()}.`,
      fields: [],
    };
    const flags: EntryWarning[] = stale.map((message) => ({
      code: 'rule_warning',
      severity: 'critical',
      source: SITE_SYNC_SOURCE,
      rule: STALE_DECISION_RULE,
      message,
      fields: ['plateNumber'],
    }));
    const row: Record<string, unknown> = {
      ...entry,
      tenant_id: node.tenantId,
      id: event.id,
      timestamp: siteRecordedAt.toISOString(),
      site_id: node.siteId,
      gate_id: event.gateId,
      // The site's idempotency keys are the site's; its documents came with the entry.
      idempotency_key: null,
      request_hash: null,
      ...(await applyEntryAttachments(
        tx,
        objects,
        node.tenantId,
        entry,
        entryAttachments(node.tenantId, entry),
      )),
      warnings: [...(entry.warnings ?? []), provenance, ...flags],
    };
    delete row.face_comparison_id;
    delete row.objects;
    delete row.objects_missing;
    delete row.documents;
    const inserted = await insertSiteEntry(tx, row);
    if (!inserted) return;
    if (entry.face_comparison_id)
      await linkFaceComparison(tx, node.tenantId, event.id, entry.face_comparison_id);
    // The site's captures it names in its image fields are cited here as they were there.
    await citeSiteCaptures(tx, node.tenantId, { keys: entryImageKeys(entry) }, receivedAt);
    await visits.openForSiteEntry(
      tx,
      node.tenantId,
      {
        id: event.id,
        entryGranted: entry.entry_granted,
        plateNumber: entry.plate_number,
        driverName: entry.driver_name ?? null,
        driverSurname: entry.driver_surname ?? null,
        transportName: entry.transport_name ?? null,
        siteId: node.siteId,
        gateId: event.gateId,
        timestamp: siteRecordedAt,
        plateImageKey: null,
      },
      { userId: entry.recorded_by ?? null, name: entry.recorded_by_name ?? null },
    );
    if (stale.length > 0) {
      await alerts.raiseAlert(tx, {
        tenantId: node.tenantId,
        kind: 'site_stale_decision',
        entryId: event.id,
        siteId: node.siteId,
        gateId: event.gateId,
        plateNumber: entry.plate_number,
        message: `${entry.plate_number} was admitted at a site node on data central had already changed: ${stale.join(' ')}`,
        dedupeKey: `site_stale_decision:${event.id}`,
      });
    }
    // An exit recorded at another gate may have arrived first: it closes the visit now.
    const pendingExit = await repository.pendingExitOf(tx, node.tenantId, event.id);
    if (pendingExit) {
      await applyExit(
        tx,
        node,
        pendingExit.id,
        pendingExit.gateId,
        parseSiteExitPayload(pendingExit.payload),
      );
    }
  }

  async function applyExit(
    tx: DbExecutor,
    node: SiteNode,
    eventId: string,
    gateId: string | null,
    exit: SiteExitPayload,
  ) {
    if (!exit.entry_log_id) return;
    await visits.closeForSiteExit(tx, node.tenantId, exit.entry_log_id, {
      exitedAt: new Date(exit.exited_at),
      gateId: exit.exit_gate_id ?? gateId,
      source: exit.exit_source ?? 'guard',
      by: { userId: exit.exited_by ?? null, name: exit.exited_by_name ?? null },
      ticketNumber: exit.exit_ticket_number ?? null,
      sealNumbers: exit.exit_seal_numbers ?? null,
      mismatches: (exit.exit_mismatches ?? null) as Parameters<
        VisitsService['closeForSiteExit']
      >[3]['mismatches'],
      siteEventId: eventId,
    });
  }

  /**
   * The tenant's data key versions a node may no longer send: below the oldest it still may, that
   * is, erased (retired) or being erased (`closeToNodes`). A fact sealed with one of them would be
   * stored unreadable or after the erasure's last walk; the node re-seals its unacknowledged facts
   * once it has the new key (keys.reseal-node), then sends them again. The keys are held in the
   * batch's transaction (`holdDataKeys`), so no erasure begins before the batch is stored, where
   * the erasure's last walk re-seals it.
   */
  async function retiredDataKeyCheck(tx: DbExecutor, tenantId: string) {
    const oldest = oldestOpen(await keyring.holdDataKeys(tx, tenantId));
    return (kind: string, payload: Record<string, unknown>) => {
      const retired = [...dataKeyVersionsOf(kind, payload)].filter((version) => version < oldest);
      if (retired.length > 0)
        throw new Error(
          `sealed with data key v${retired.join(', v')}, which the organization has retired ` +
            '(or is erasing): the node re-seals it with the current key (keys.reseal-node) and ' +
            'sends it again',
        );
    };
  }

  /** The data key version of the object stored under `key` (null: not sealed; undefined: none). */
  async function heldVersion(key: string): Promise<number | null | undefined> {
    const head = await objects.getRange(key, 0, OBJECT_HEADER_BYTES - 1);
    return head === undefined ? undefined : (readObjectHeader(head)?.version ?? null);
  }

  /** Checks a batch before anything is written: one bad event refuses the batch (400). */
  async function validate(tx: DbExecutor, node: SiteNode, events: SiteSyncEvent[]) {
    const notRetired = await retiredDataKeyCheck(tx, node.tenantId);
    const ids = new Set<string>();
    const gatesSeen = new Map<string, boolean>();
    const parsed = new Map<string, Parsed>();
    for (const [index, event] of events.entries()) {
      const at = `events[${index}]`;
      if (ids.has(event.id))
        throw new AppError('INVALID', `${at}: the id ${event.id} is sent twice.`);
      ids.add(event.id);
      if (event.gateId) {
        if (!gatesSeen.has(event.gateId)) {
          const gate = await findGate(tx, node.tenantId, event.gateId);
          gatesSeen.set(event.gateId, gate?.siteId === node.siteId);
        }
        if (!gatesSeen.get(event.gateId))
          throw new AppError('INVALID', `${at}: the gate is not a gate of this node's site.`);
      }
      try {
        notRetired(event.kind, event.payload);
        if (event.kind === 'entry') {
          const entry = parseSiteEntryPayload(event.payload);
          if (entry.id !== undefined && entry.id !== event.id)
            throw new Error(
              "payload.id is not the event's id (an entry's fact id is its entry id)",
            );
          entryAttachments(node.tenantId, entry);
          parsed.set(event.id, entry);
        } else if (event.kind === 'exit') {
          parsed.set(event.id, parseSiteExitPayload(event.payload));
        } else {
          const row = ROW_PARSERS[event.kind](event.payload);
          if (row.id !== undefined && row.id !== event.id)
            throw new Error(
              `payload.id is not the event's id (a ${event.kind}'s fact id is its row id)`,
            );
          parsed.set(
            event.id,
            event.kind === 'capture'
              ? {
                  capture: row as SiteCapturePayload,
                  bytes: captureObject(node.tenantId, row as SiteCapturePayload),
                }
              : (row as Parsed),
          );
        }
      } catch (error) {
        throw new AppError('INVALID', `${at} (${event.kind}): ${(error as Error).message}`);
      }
    }
    return parsed;
  }

  /** One batch in one transaction; its objects through `batchObjects` (see receiveEvents). */
  async function receiveBatch(
    node: SiteNode,
    batch: SiteSyncEventsBatch,
    receivedAt: Date,
    batchObjects: RawObjects,
    undoObjects: () => Promise<void>,
  ): Promise<SiteSyncAck> {
    return database.withTenant(node.tenantId, async (tx) => {
      await repository.lockSite(tx, node.tenantId, node.siteId);
      try {
        const parsed = await validate(tx, node, batch.events);
        const held = await repository.heldIds(
          tx,
          node.tenantId,
          batch.events.map((event) => event.id),
        );
        const streams = [...new Set(batch.events.map((event) => siteSyncStreamKey(event.gateId)))];
        const highest = await repository.highestSeqs(tx, node.tenantId, node.siteId, streams);
        const acknowledged = () =>
          Object.fromEntries(streams.map((stream) => [stream, highest.get(stream) ?? 0]));

        const duplicates: string[] = [];
        const duplicatesHeldAs: Record<string, number> = {};
        const fresh: SiteSyncEvent[] = [];
        // Duplicates sent under a seq above the stream's highest (candidates for an alias).
        const resentAbove: SiteSyncEvent[] = [];
        for (const event of batch.events) {
          const stream = siteSyncStreamKey(event.gateId);
          const before = held.get(event.id);
          if (before) {
            const sameFact =
              before.siteId === node.siteId &&
              before.stream === stream &&
              (before.seq === event.seq ||
                // ADR 0009: the same fact under another seq (a node restored twice around a
                // renumbering) is already applied, not a conflict the node would resend forever.
                (before.kind === event.kind &&
                  sitePayloadHash(before.payload) ===
                    sitePayloadHash(storedPayloadOf(event, parsed.get(event.id)))));
            if (!sameFact)
              throw new AppError(
                'CONFLICT',
                `Event ${event.id} is already held as seq ${before.seq} of another stream or site, or with another payload.`,
              );
            duplicates.push(event.id);
            if (before.seq !== event.seq) {
              duplicatesHeldAs[event.id] = before.seq;
              if (event.seq > (highest.get(stream) ?? 0)) resentAbove.push(event);
            }
          } else {
            fresh.push(event);
          }
        }
        // Per stream in seq order: each new fact must follow the last one held, without a gap.
        fresh.sort((a, b) => a.seq - b.seq);
        // A new fact under a seq central already holds for another fact: never overwritten.
        const reused = fresh.filter(
          (event) => event.seq <= (highest.get(siteSyncStreamKey(event.gateId)) ?? 0),
        );
        if (reused.length > 0) {
          const first = reused[0]!;
          const stream = siteSyncStreamKey(first.gateId);
          throw new SiteSyncSeqReusedError(
            stream,
            acknowledged(),
            reused.map((event) => ({
              id: event.id,
              stream: siteSyncStreamKey(event.gateId),
              seq: event.seq,
            })),
            `Stream ${stream}: seq ${first.seq} is already held by another event; central holds up to ${highest.get(stream) ?? 0}. Renumber the new facts after it.`,
          );
        }
        const next = new Map(streams.map((stream) => [stream, (highest.get(stream) ?? 0) + 1]));
        // ADR 0009: a fact central holds, sent again under the stream's next seq (a node restored
        // twice around a renumbering), takes that seq as an alias: the node marks it acknowledged
        // and its later facts follow it. Not counting the seq left them a gap for ever (the node's
        // reconcile re-opened the duplicate above central's seq and sent both again). A duplicate
        // under a seq that is not the next one is only a duplicate (nothing to take).
        const aliases: SiteSyncEvent[] = [];
        const ordered = [...fresh, ...resentAbove].sort((a, b) => a.seq - b.seq);
        for (const event of ordered) {
          const stream = siteSyncStreamKey(event.gateId);
          const expected = next.get(stream)!;
          if (resentAbove.includes(event)) {
            if (event.seq === expected) {
              aliases.push(event);
              next.set(stream, expected + 1);
            }
            continue;
          }
          if (event.seq !== expected) {
            throw new SiteSyncGapError(
              stream,
              acknowledged(),
              event.seq < expected
                ? `Stream ${stream}: seq ${event.seq} is already held by another event; central holds up to ${expected - 1}.`
                : `Stream ${stream}: seq ${event.seq} skips ${expected}; central holds up to ${expected - 1}, resend from ${expected}.`,
            );
          }
          next.set(stream, expected + 1);
        }

        for (const event of aliases) {
          const stream = siteSyncStreamKey(event.gateId);
          await repository.insertSeqAlias(tx, {
            tenantId: node.tenantId,
            siteId: node.siteId,
            stream,
            seq: event.seq,
            eventId: event.id,
            recordedAt: receivedAt,
          });
          highest.set(stream, Math.max(highest.get(stream) ?? 0, event.seq));
        }

        const flagged: string[] = [];
        for (const event of fresh) {
          const payload = parsed.get(event.id);
          const stale =
            event.kind === 'entry'
              ? await staleReasons(
                  tx,
                  node.tenantId,
                  payload as SiteEntryPayload,
                  new Date(event.siteRecordedAt),
                )
              : [];
          const capture =
            event.kind === 'capture'
              ? (payload as { capture: SiteCapturePayload; bytes: Buffer | null })
              : null;
          const inserted = await repository.insertEvent(tx, {
            tenantId: node.tenantId,
            id: event.id,
            siteId: node.siteId,
            gateId: event.gateId,
            stream: siteSyncStreamKey(event.gateId),
            seq: event.seq,
            kind: event.kind,
            siteRecordedAt: new Date(event.siteRecordedAt),
            centralReceivedAt: receivedAt,
            // A capture's object goes to storage, not into the fact's row (its digest does).
            payload: storedPayloadOf(event, payload),
            // Flagged: a stale decision, or objects the site no longer held (objects_missing).
            flagged: stale.length > 0 || objectsMissing(event).length > 0,
          });
          if (!inserted) {
            duplicates.push(event.id);
            continue;
          }
          if (stale.length > 0) flagged.push(event.id);
          const missing = objectsMissing(event);
          if (missing.length > 0)
            // ADR 0009: an image the site no longer held when it sent the fact (purged there, and
            // central asked for the fact again after a restore): the fact is kept, and staff are
            // told the image is gone rather than left to find a broken one.
            await audit.record(tx, {
              tenantId: node.tenantId,
              actorUserId: null,
              action: 'site.sync.objects-missing',
              targetType: event.kind === 'capture' ? 'capture' : 'entry_log',
              targetId: event.id,
              details: {
                siteId: node.siteId,
                stream: siteSyncStreamKey(event.gateId),
                seq: event.seq,
                kind: event.kind,
                keys: missing,
                siteRecordedAt: event.siteRecordedAt,
              },
            });
          if (event.kind === 'entry')
            await applyEntry(
              tx,
              batchObjects,
              node,
              event,
              payload as SiteEntryPayload,
              stale,
              receivedAt,
            );
          if (event.kind === 'exit')
            await applyExit(tx, node, event.id, event.gateId, payload as SiteExitPayload);
          const row = { tenantId: node.tenantId, id: event.id };
          if (capture)
            await applyCapture(
              tx,
              batchObjects,
              { ...row, siteId: node.siteId, receivedAt },
              capture.capture,
              capture.bytes,
            );
          if (event.kind === 'face_comparison')
            await applyFaceComparison(
              tx,
              { ...row, receivedAt },
              payload as SiteFaceComparisonPayload,
            );
          if (event.kind === 'correction')
            await applyCorrection(tx, row, payload as SiteCorrectionPayload);
          if (event.kind === 'audit')
            await applyAudit(
              tx,
              { ...row, siteId: node.siteId, receivedAt },
              payload as SiteAuditPayload,
            );
          const stream = siteSyncStreamKey(event.gateId);
          highest.set(stream, Math.max(highest.get(stream) ?? 0, event.seq));
        }
        await repository.touchToken(tx, node.tenantId, node.tokenId, 'up', receivedAt);
        if (fresh.length > 0 || aliases.length > 0) {
          await audit.record(tx, {
            tenantId: node.tenantId,
            actorUserId: null,
            action: 'site.sync.events-received',
            targetType: 'site_node_token',
            targetId: node.tokenId,
            details: {
              siteId: node.siteId,
              received: fresh.length,
              duplicates: duplicates.length,
              flagged,
              ...(aliases.length > 0
                ? {
                    aliases: aliases.map((event) => ({
                      id: event.id,
                      stream: siteSyncStreamKey(event.gateId),
                      seq: event.seq,
                      heldAs: duplicatesHeldAs[event.id],
                    })),
                  }
                : {}),
            },
          });
        }
        return {
          acknowledged: acknowledged(),
          duplicates,
          ...(Object.keys(duplicatesHeldAs).length > 0 ? { duplicatesHeldAs } : {}),
          flagged,
        };
      } catch (error) {
        // Still inside the transaction, so the site's lock is still held: no other batch of this
        // site can be storing the same key now (a retried batch waits for the lock), so removing
        // what this batch stored cannot take an object from a batch that commits.
        await undoObjects();
        throw error;
      }
    });
  }
  return {
    // ---- tokens (tenant_admin) ----
    async createToken(
      actor: Actor,
      siteId: string,
      body: CreateSiteNodeToken,
      ip?: string,
    ): Promise<CreatedSiteNodeToken> {
      const token = newToken();
      return database.withTenant(actor.tenantId, async (tx) => {
        await sites.visibleSite(tx, actor, siteId);
        const row = await repository.insertToken(tx, {
          tenantId: actor.tenantId,
          id: newId(),
          siteId,
          name: body.name,
          tokenHash: hashSiteToken(token),
          createdBy: actor.userId,
          createdAt: clock.now(),
        });
        const key = await signingKey(tx, actor.tenantId);
        await audit.record(tx, {
          tenantId: actor.tenantId,
          actorUserId: actor.userId,
          action: 'site.node-token.created',
          targetType: 'site_node_token',
          targetId: row.id,
          ip,
          details: { siteId, name: row.name },
        });
        return {
          ...toSiteNodeToken(row, clock.now(), staleAfterMs),
          token,
          centralPublicKey: key.publicKey,
        };
      });
    },

    listTokens: (actor: Actor, siteId: string) =>
      database.withTenant(actor.tenantId, async (tx) => {
        await sites.visibleSite(tx, actor, siteId);
        const now = clock.now();
        return (await repository.listTokens(tx, actor.tenantId, siteId)).map((row) =>
          toSiteNodeToken(row, now, staleAfterMs),
        );
      }),

    /** Revokes the token (idempotent); its node is refused from its next request on. */
    revokeToken: (actor: Actor, siteId: string, tokenId: string, ip?: string) =>
      database.withTenant(actor.tenantId, async (tx) => {
        await sites.visibleSite(tx, actor, siteId);
        const row = await repository.findToken(tx, actor.tenantId, siteId, tokenId);
        if (!row) throw tokenNotFound();
        if (row.revokedAt) return;
        await repository.revokeToken(tx, actor.tenantId, tokenId, clock.now());
        await audit.record(tx, {
          tenantId: actor.tenantId,
          actorUserId: actor.userId,
          action: 'site.node-token.revoked',
          targetType: 'site_node_token',
          targetId: tokenId,
          ip,
          details: { siteId, name: row.name },
        });
      }),

    /** The site node an unrevoked token belongs to, or null. */
    authenticate: async (token: string): Promise<SiteNode | null> =>
      database.withoutTenant((tx) => repository.findTokenByHash(tx, hashSiteToken(token))),

    // ---- down-sync ----
    async changes(node: SiteNode, query: SiteSyncChangesQuery): Promise<SiteSyncChangesPage> {
      const now = clock.now();
      return database.withTenant(node.tenantId, async (tx) => {
        const highWater = await repository.horizon(tx);
        if (query.since > highWater) {
          throw new AppError(
            'CONFLICT',
            `since ${query.since} is ahead of central (version ${highWater}): central was restored; pull again from 0.`,
          );
        }
        const rows =
          query.since === highWater
            ? []
            : await repository.changes(tx, {
                tenantId: node.tenantId,
                siteId: node.siteId,
                since: query.since,
                upTo: highWater,
                limit: query.limit,
              });
        // A full page may have more behind it; a short one holds every change up to highWater.
        const nextSince = rows.length === query.limit ? rows[rows.length - 1]!.version : highWater;
        await repository.touchToken(tx, node.tenantId, node.tokenId, 'down', now);
        const key = await signingKey(tx, node.tenantId);
        return signSiteSyncPage(
          {
            tenantId: node.tenantId,
            siteId: node.siteId,
            since: query.since,
            nextSince,
            highWater,
            changes: rows.map((row) => ({
              version: row.version,
              table: row.table,
              id: row.id,
              deleted: row.row === null,
              row: row.row,
            })),
            generatedAt: now.toISOString(),
          },
          key.privateKey(),
        );
      });
    },

    // ---- the tenant's keys for the node ----
    /**
     * The tenant's live keys (active and retiring) wrapped for the node's X25519 key (ADR 0009).
     * Audited when what the node says it holds differs from what it is sent (a first delivery, a
     * rotation): the node asks at every pull, and an unchanged answer is not an event.
     */
    async deliverKeys(node: SiteNode, body: SiteSyncKeysRequest): Promise<SiteSyncKeys> {
      const keys = await keyring.liveKeys(node.tenantId);
      let answer: SiteSyncKeys;
      try {
        answer = wrapKeysForNode(node.tenantId, body.nodePublicKey, keys);
      } catch {
        throw new AppError('INVALID', 'nodePublicKey is not an X25519 public key (SPKI, base64).');
      }
      const sent = keySetOf(keys);
      if (sent.join(',') !== [...body.have].sort().join(',')) {
        await database.withTenant(node.tenantId, (tx) =>
          audit.record(tx, {
            tenantId: node.tenantId,
            actorUserId: null,
            action: 'site.node-keys.delivered',
            targetType: 'site_node_token',
            targetId: node.tokenId,
            details: { siteId: node.siteId, keys: sent, nodeHad: body.have },
          }),
        );
      }
      return answer;
    },

    // ---- up-sync ----
    async receiveEvents(node: SiteNode, batch: SiteSyncEventsBatch): Promise<SiteSyncAck> {
      const receivedAt = clock.now();
      // Objects are stored inside the batch's transaction, before it commits (a fact is never
      // acknowledged without its object). Should the batch fail, the objects it stored that were
      // not in storage before are removed again, while the site's lock is still held: nothing
      // orphaned, nothing held before touched, nothing a concurrent batch stored taken. (A failure
      // of the commit itself leaves them: an orphan, never a held fact without its image.)
      const storedHere: string[] = [];
      const undoObjects = async () => {
        for (const key of storedHere.splice(0)) await objects.delete(key).catch(() => undefined);
      };
      const batchObjects: RawObjects = {
        has: async (key) => (await objects.getRange(key, 0, 0)) !== undefined,
        async put(key, bytes) {
          const before = await objects.getRange(key, 0, 0);
          await objects.put(key, bytes);
          if (!before) storedHere.push(key);
        },
      };
      return receiveBatch(node, batch, receivedAt, batchObjects, undoObjects);
    },

    /** Every stream of the node's site with the highest seq central holds (ADR 0009, restore). */
    /**
     * One object an entry names, sent on its own before the entry's fact (ADR 0009: an entry's
     * size stays bounded by its rows). Checked as an inline object is: a non-capture storage key
     * of the token's tenant, sealed. Idempotent on the key: an object central already holds under
     * it is kept (`stored: false`), unless the data key it is sealed with is erased (then the
     * upload, sealed with a key nodes may send, replaces it). The fact naming it is checked and audited
     * when it arrives.
     */
    async receiveObject(node: SiteNode, body: SiteSyncObject): Promise<SiteSyncObjectStored> {
      if (!isEntryObjectKey(node.tenantId, body.key))
        throw new AppError(
          'INVALID',
          "key: not an image key of this node's tenant (a capture's object comes with its fact).",
        );
      const bytes = Buffer.from(body.object, 'base64');
      if (!isSealedObject(bytes))
        throw new AppError(
          'INVALID',
          "object: not a sealed object (the site seals with the tenant's key).",
        );
      const upload = {
        tenantId: node.tenantId,
        siteId: node.siteId,
        key: body.key,
        uploadedAt: clock.now(),
      };
      // An object central holds under the key is kept (`stored: false`), unless the key it is
      // sealed with is erased (unreadable for ever): this upload replaces it. One under a key
      // being erased is still readable and re-sealed by the erasure's walk: kept.
      const held = await heldVersion(body.key);
      if (held !== undefined) {
        const kept = await database.withTenant(node.tenantId, async (tx) => {
          if (
            typeof held === 'number' &&
            held < (await keyring.oldestLiveDataKey(tx, node.tenantId))
          )
            return false;
          await recordUploadAgain(tx, upload);
          return true;
        });
        if (kept) return { key: body.key, stored: false };
      }
      // Recorded first, in a transaction of its own: an object never lies in storage unrecorded,
      // even when this process dies after the put, so the daily sweep deletes it if the entry
      // naming it never arrives (site-sync.uploads.ts). A failed upload therefore deletes nothing:
      // not an object a concurrent upload of the same key stored, not one already checked.
      await database.withTenant(node.tenantId, (tx) => recordUpload(tx, upload));
      const checkKey = async (tx: DbExecutor) => {
        const notRetired = await retiredDataKeyCheck(tx, node.tenantId);
        try {
          notRetired('entry', { objects: { [body.key]: body.object } });
        } catch (error) {
          throw new AppError('INVALID', `object: ${(error as Error).message}.`);
        }
      };
      let stored = false;
      try {
        await database.withTenant(node.tenantId, async (tx) => {
          // The data keys stay held until the object is stored: the erasure of the key it names
          // begins only after this (keys.closeToNodes waits for it), and its last storage walk
          // then finds the object; one that began first makes this check refuse it.
          await checkKey(tx);
          await objects.put(body.key, bytes);
          stored = true;
        });
      } catch (error) {
        if (!stored) throw error;
        // The commit failed after the put (a connection lost to a slow put): the keys may have
        // been let go before the object was stored. Checked again while holding them: still open,
        // a later erasure's walk sees the object; closed meanwhile, it goes (the node sends it
        // again under the new key), unless what the key holds by now is sealed with a key still
        // open (a later upload of it).
        await database.withTenant(node.tenantId, async (tx) => {
          try {
            await checkKey(tx);
          } catch (refused) {
            const now = await heldVersion(body.key);
            const oldest = oldestOpen(await keyring.holdDataKeys(tx, node.tenantId));
            if (typeof now === 'number' && now < oldest) await objects.delete(body.key);
            throw refused;
          }
        });
      }
      return { key: body.key, stored: true };
    },

    /** Every stream of the node's site with the highest seq central holds (ADR 0009, restore). */
    acknowledged: (node: SiteNode): Promise<SiteSyncAcknowledged> =>
      database.withTenant(node.tenantId, async (tx) => {
        const held = await repository.allHighestSeqs(tx, node.tenantId, node.siteId);
        return { acknowledged: Object.fromEntries(held) };
      }),

    /** Central's side: the last down- and up-sync of the tenant's (or one site's) node tokens. */
    status: (actor: Actor, siteId: string | undefined): Promise<SiteSyncStatus> =>
      database.withTenant(actor.tenantId, async (tx) => {
        if (siteId) await sites.visibleSite(tx, actor, siteId);
        const tokens = siteId
          ? await repository.listTokens(tx, actor.tenantId, siteId)
          : await repository.listAllTokens(tx, actor.tenantId);
        const live = tokens.filter((token) => !token.revokedAt);
        return {
          mode: 'central' as const,
          lastDownSyncAt: maxDate(live.map((token) => token.lastDownSyncAt))?.toISOString() ?? null,
          lastUpSyncAt: maxDate(live.map((token) => token.lastUpSyncAt))?.toISOString() ?? null,
          oldestUnacknowledgedAt: null,
          offline: false,
        };
      }),
  };
}
