import { createHash } from 'node:crypto';

import type { GateOpenOutcome } from '@boomgate/contracts/barriers';
import type { EntryWarning } from '@boomgate/contracts/entry-checks';
import type { GrantEntryBodySchema } from '@boomgate/contracts/entry-logs';
import type { SQL } from 'drizzle-orm';
import type { z } from 'zod';

import type { AlertsModule } from '@/modules/alerts';
import type { ApprovedVehiclesService } from '@/modules/approved-vehicles';
import type { AuditService } from '@/modules/audit';
import type { BarriersService } from '@/modules/barriers';
import type { CapturesService } from '@/modules/captures';
import type { CorrectionsService } from '@/modules/corrections';
import type { CitedReadingsReader } from '@/modules/documents';
import type { FaceComparisonResult, FaceEvidence, FacesService } from '@/modules/faces';
import type { ImagesService } from '@/modules/images';
import type { Actor } from '@/modules/sessions';
import type { UsersService } from '@/modules/users';
import { WATCHLIST_SOURCE, type WatchlistService, watchlistWarnings } from '@/modules/watchlist';
import {
  DOCUMENT_RULES_SOURCE,
  type DocumentRulesService,
  documentRuleWarnings,
  evaluateDocumentRules,
  gvmKilograms,
} from '@/modules/document-rules';
import type { InductionService } from '@/modules/induction';
import { siteDay } from '@/platform/calendar';
import type { Clock } from '@/platform/clock';
import type { Database, DbExecutor } from '@/platform/db';
import { AppError, findPgError, isUniqueViolation } from '@/platform/errors';
import { newId, newUuidV7 } from '@/platform/ids';
import { decodeImagePayload } from '@/platform/images';

import { readPageCursor, toPage } from '@/platform/page-cursor';
import type { EntryLogsRepository } from './entry-logs.repository';
import type { EntryLogRow } from './entry-logs.table';
import { type EntryEvidence, type RuleOutcome, decideEntry, flowOf } from './entry-decision';

/** Rule sources whose modules write typed warnings for their outcomes (see decideEntry). */
const TYPED_RULE_SOURCES: ReadonlySet<string> = new Set([
  WATCHLIST_SOURCE,
  DOCUMENT_RULES_SOURCE,
  RIG_SOURCE,
]);
import { crossCheckWarnings, driverDetails } from './entry-rules';
import type { SiteFacts } from '@/modules/site-node';

import { faceClaimWarnings } from './entry-verdicts';
import { RIG_SOURCE, checkRig, rigWarnings } from './rig-check';
import { plateProvenance } from './plate-provenance';
import { withTypedCorrections } from './typed-corrections';

type GrantEntry = z.output<typeof GrantEntryBodySchema>;

/**
 * A source of rule outcomes about an attempt (watchlists, document rules…), run in the entry's
 * transaction; decideEntry turns its blocks into the refusal and its warnings into the entry's.
 */
export type EntryRuleSource = (
  tx: DbExecutor,
  actor: Actor,
  attempt: {
    body: GrantEntry;
    vehicle: { id: string; driverId: string | null } | null;
    driver: ReturnType<typeof driverDetails>['details'];
  },
) => Promise<RuleOutcome[]>;

const RECENT_ENTRIES = 10;

export type EntryLogsServiceDeps = {
  database: Pick<Database, 'withTenant'>;
  repository: EntryLogsRepository;
  images: Pick<ImagesService, 'storeOptional' | 'storeImage' | 'deleteImage'>;
  vehicles: Pick<ApprovedVehiclesService, 'findByPlate' | 'isApproved' | 'activeCountSql'>;
  users: Pick<UsersService, 'activeCountSql'>;
  audit: Pick<AuditService, 'record'>;
  faces: Pick<FacesService, 'compareWithVehicle' | 'record' | 'claimForEntry'>;
  /** The cited documents' readings (documents module; the one adapter to switch to typed readings). */
  readings: CitedReadingsReader;
  captures: Pick<CapturesService, 'resolveImage' | 'resolveImages' | 'readCapture' | 'findReading'>;
  /** Issue 21: the tenant's watchlist, screened on every entry. */
  watchlist: Pick<WatchlistService, 'screen' | 'recordHits'>;
  /** Issue 21: the tenant's document rules, and the driver's induction one of them reads. */
  documentRules: Pick<DocumentRulesService, 'rulesOf'>;
  induction: Pick<InductionService, 'validityWithin'>;
  corrections: Pick<CorrectionsService, 'record'>;
  clock: Clock;
  /** Issue 22: a refused entry raises entry_refused in the entry's own transaction. */
  alerts?: Pick<AlertsModule['hooks'], 'entryRefused' | 'raiseAlert'>;
  /** Further refusal sources (issue 21's watchlist and document rules plug in here). */
  ruleSources?: readonly EntryRuleSource[];
  /** Issue 16: sites and visits (see GatePlaces); without it entries have no site. */
  places?: GatePlaces;
  /** Issue 17: opens the barrier of the entry's gate when the entry is granted. */
  barriers?: Pick<BarriersService, 'openForEntry'>;
  /**
   * Issue 18: the tenant's `offlineDecisions` setting (settings module), read only for an entry
   * recorded offline; without it an offline grant is judged like any other.
   */
  offlineDecisionsOf?: (tx: DbExecutor, tenantId: string) => Promise<'grant' | 'record_only'>;
  /** Issue 28: on a site node (SITE_NODE=1), every entry is also a fact for central's outbox. */
  siteFacts?: SiteFacts;
};

/** The rule source of issue 18's offline checks (its outcomes are described as rule warnings). */
export const OFFLINE_SOURCE = 'offline';

/**
 * Issue 16, wired in modules.ts: where an entry is recorded (the site and gate, checked against
 * the caller's sites), which sites the caller's lists show, and the visit a granted entry opens.
 */
export type GatePlaces = {
  placeOf(
    tx: DbExecutor,
    actor: Actor,
    where: { siteId?: string | null; gateId?: string | null },
  ): Promise<{ siteId: string; gateId: string | null }>;
  /** The caller's sites; null for every site. */
  scopeOf(tx: DbExecutor, actor: Actor): Promise<readonly string[] | null>;
  /** A site the caller may see (else a 404). */
  visibleSite(tx: DbExecutor, actor: Actor, siteId: string): Promise<unknown>;
  onEntryLogged(
    tx: DbExecutor,
    actor: Actor,
    entry: EntryLogRow,
    offlineAt?: Date,
  ): Promise<unknown>;
  /** The dashboard's On Site card: a scalar subquery for its statement. */
  onSiteCountSql(tenantId: string, siteIds: readonly string[] | null): SQL<number>;
};

export type EntryLogsService = ReturnType<typeof createEntryLogsService>;

const percent = (part: number, whole: number) =>
  whole === 0 ? 0 : Math.round((part / whole) * 1000) / 10;

/** The outcome of grant-entry's own face comparison, made before the entry's transaction. */
type OwnComparison =
  { ok: true; result: FaceComparisonResult } | { ok: false; message: string } | null;

export function createEntryLogsService({
  database,
  repository,
  images,
  vehicles,
  users,
  audit,
  faces,
  readings: readCited,
  captures,
  watchlist,
  documentRules,
  induction,
  corrections,
  clock,
  alerts,
  ruleSources = [],
  places,
  barriers,
  offlineDecisionsOf,
  siteFacts,
}: EntryLogsServiceDeps) {
  /** The sites a list shows: the one asked for (if the caller may see it), else the caller's. */
  async function listedSites(
    tx: DbExecutor,
    actor: Actor,
    siteId: string | undefined,
  ): Promise<readonly string[] | null> {
    if (!places) return null;
    if (siteId) {
      await places.visibleSite(tx, actor, siteId);
      return [siteId];
    }
    return places.scopeOf(tx, actor);
  }

  /**
   * With a face image, no cited comparison, and a driver on file for the plate's vehicle, the
   * server compares the face itself (same engine and threshold as /api/face-comparison). Made
   * outside the entry's transaction: the engine takes hundreds of milliseconds. A face the engine
   * cannot compare (none, two) is no verdict, recorded as a warning; the attempt is still logged.
   */
  async function ownComparison(actor: Actor, body: GrantEntry): Promise<OwnComparison> {
    if (body.faceComparisonId || !(body.driverFaceImage || body.driverFaceImageCaptureId)) {
      return null;
    }
    const vehicle = await database.withTenant(actor.tenantId, (tx) =>
      vehicles.findByPlate(tx, actor.tenantId, body.plateNumber),
    );
    if (!vehicle?.driverPhotoKey && !vehicle?.driverFaceDescriptor) return null;
    try {
      // The face sent, or the capture it cites (issue 14: an unknown or expired capture is a 404).
      const live = body.driverFaceImage
        ? decodeImagePayload(body.driverFaceImage).bytes
        : await captures.readCapture(actor, body.driverFaceImageCaptureId ?? '');
      return { ok: true, result: await faces.compareWithVehicle(actor, live, vehicle.id) };
    } catch (error) {
      // No face or two faces: no verdict. A bad image (415) or a busy engine (503) is the
      // request's failure, answered as such.
      if (error instanceof AppError && error.code === 'UNPROCESSABLE')
        return { ok: false, message: error.message };
      throw error;
    }
  }

  /** The entry's face verdict: from a cited comparison, the server's own, or none. */
  async function faceEvidence(
    tx: DbExecutor,
    actor: Actor,
    body: GrantEntry,
    context: {
      entryId: string;
      vehicle: {
        id: string;
        driverPhotoKey: string | null;
        driverFaceDescriptor: string | null;
      } | null;
      own: OwnComparison;
      ip?: string;
    },
  ): Promise<{ evidence: FaceEvidence | null; warnings: EntryWarning[] }> {
    const { entryId, vehicle, own } = context;
    if (body.faceComparisonId) {
      const evidence = await faces.claimForEntry(tx, actor, body.faceComparisonId, {
        entryId,
        vehicle: vehicle && {
          id: vehicle.id,
          hasReference: vehicle.driverPhotoKey !== null || vehicle.driverFaceDescriptor !== null,
        },
      });
      return { evidence, warnings: [] };
    }
    if (own?.ok) {
      const comparisonId = await faces.record(tx, actor, own.result, {
        usedByEntryId: entryId,
        // The face cited as a capture: the comparison cites it too (an inline face is the entry's).
        liveCaptureId: body.driverFaceImageCaptureId,
        ip: context.ip,
      });
      return {
        evidence: {
          comparisonId,
          faceVerified: own.result.decision === 'match',
          matchScore: own.result.matchScore,
        },
        warnings: [],
      };
    }
    if (own && !own.ok)
      return {
        evidence: null,
        warnings: [
          {
            code: 'face_comparison_failed',
            severity: 'warning',
            message: `The face sent with the entry could not be compared: ${own.message}`,
            fields: ['driverFaceImage'],
          },
        ],
      };
    return { evidence: null, warnings: [] };
  }

  /** Issue 14: image fields cited as captures (`<field>CaptureId`) become the captures' keys. */
  async function resolveCaptures(
    tx: DbExecutor,
    actor: Actor,
    body: GrantEntry,
    stored: Awaited<ReturnType<typeof storeImages>>,
  ): Promise<Awaited<ReturnType<typeof storeImages>>> {
    const one = (image: string | null, captureId: string | null) =>
      captures.resolveImage(tx, actor, { image, captureId });
    return {
      plateImageKey: await one(stored.plateImageKey, body.plateImageCaptureId),
      vehicleDiskImageKey: await one(stored.vehicleDiskImageKey, body.vehicleDiskImageCaptureId),
      driverFaceImageKey: await one(stored.driverFaceImageKey, body.driverFaceImageCaptureId),
      driverLicenseImageKey: await one(
        stored.driverLicenseImageKey,
        body.driverLicenseImageCaptureId,
      ),
      passportImageKey: await one(stored.passportImageKey, body.passportImageCaptureId),
      permitImageKeys: await captures.resolveImages(tx, actor, {
        images: stored.permitImageKeys,
        captureIds: body.permitImagesCaptureIds,
      }),
    };
  }

  async function storeImages(actor: Actor, body: GrantEntry) {
    const store = (kind: Parameters<ImagesService['storeOptional']>[1], payload: string | null) =>
      images.storeOptional(actor.tenantId, kind, payload);
    return {
      plateImageKey: await store('plates', body.plateImage),
      vehicleDiskImageKey: await store('discs', body.vehicleDiskImage),
      driverFaceImageKey: await store('faces', body.driverFaceImage),
      driverLicenseImageKey: await store('drivers-licences', body.driverLicenseImage),
      passportImageKey: await store('passports', body.passportImage),
      permitImageKeys: await Promise.all(
        body.permitImages.map((image) => images.storeImage(actor.tenantId, 'permits', image)),
      ),
    };
  }

  /**
   * Issue 18: an entry decided on the device while offline is flagged (a rule warning), and an
   * offline grant is refused when the tenant lets offline decisions only record.
   */
  async function offlineOutcomes(
    tx: DbExecutor,
    tenantId: string,
    body: GrantEntry,
  ): Promise<RuleOutcome[]> {
    if (!body.recordedOffline) return [];
    const flagged: RuleOutcome = {
      source: OFFLINE_SOURCE,
      verdict: 'warn',
      // A warning's reason is never stored; the shape needs one.
      refusalReason: 'offline_grant_not_allowed',
      code: 'recorded_offline',
      message: 'Decided on the device while the server could not be reached; checked on arrival.',
    };
    if (!body.entryGranted) return [flagged];
    const policy = offlineDecisionsOf ? await offlineDecisionsOf(tx, tenantId) : 'grant';
    if (policy === 'grant') return [flagged];
    return [
      {
        source: OFFLINE_SOURCE,
        verdict: 'block',
        refusalReason: 'offline_grant_not_allowed',
        code: 'offline_grant_not_allowed',
        message:
          'The guard granted this entry offline; this organization lets offline decisions only record.',
      },
    ];
  }

  const keysOf = (stored: Awaited<ReturnType<typeof storeImages>>) =>
    [
      stored.plateImageKey,
      stored.vehicleDiskImageKey,
      stored.driverFaceImageKey,
      stored.driverLicenseImageKey,
      stored.passportImageKey,
      ...stored.permitImageKeys,
    ].filter((key): key is string => key !== null);

  return {
    /**
     * Logs an entry. Whether the vehicle is approved is decided here from the register, not taken
     * from the client. With an Idempotency-Key a retry returns the first entry (`isReplay`).
     */
    async grantEntry(
      actor: Actor,
      body: GrantEntry,
      {
        idempotencyKey,
        ip,
        laneRead,
      }: {
        idempotencyKey?: string;
        ip?: string;
        /** Issue 15: the plate an ANPR lane's camera sent the server (its read, not a client's). */
        laneRead?: string;
      },
    ): Promise<{ entry: EntryLogRow; isReplay: boolean; barrier?: GateOpenOutcome | null }> {
      const requestHash = createHash('sha256').update(JSON.stringify(body)).digest('base64url');

      if (idempotencyKey) {
        const earlier = await database.withTenant(actor.tenantId, (tx) =>
          repository.findByIdempotencyKey(tx, actor.tenantId, idempotencyKey),
        );
        if (earlier) return { entry: assertSameRequest(earlier, requestHash), isReplay: true };
      }

      const own = await ownComparison(actor, body);
      const stored = await storeImages(actor, body);
      try {
        const entry = await database.withTenant(actor.tenantId, async (tx) => {
          // Issue 16: the site and gate first, so a place outside the guard's sites writes nothing.
          const place = places
            ? await places.placeOf(tx, actor, { siteId: body.siteId, gateId: body.gateId })
            : null;
          const imageKeys = await resolveCaptures(tx, actor, body, stored);
          // Issue 15: the plate read is the cited capture's; a typed plate is a correction.
          const plate = plateProvenance({
            plateNumber: body.plateNumber,
            isAutomatedGrant: body.category === 'contracted' && body.entryGranted,
            capture: body.plateImageCaptureId
              ? ((await captures.findReading(tx, actor.tenantId, body.plateImageCaptureId)) ?? null)
              : null,
            clientExtractedPlate: body.extractedPlate,
            laneRead: laneRead ?? null,
            corrections: body.corrections,
          });
          // Issue 28: on a site node the entry's id is a UUIDv7 made here, and is also the id of
          // the fact central stores it under (exactly once).
          const entryId = siteFacts ? newUuidV7() : newId();
          const vehicle =
            (await vehicles.findByPlate(tx, actor.tenantId, body.plateNumber)) ?? null;
          const isApproved = vehicles.isApproved(vehicle ?? undefined);
          const face = await faceEvidence(tx, actor, body, {
            entryId,
            vehicle,
            own,
            ip,
          });
          // Issue 15: driver fields the guard corrected stand in for the misread ones.
          const cited = withTypedCorrections(
            await readCited(tx, actor.tenantId, body),
            body.corrections,
          );
          const driver = driverDetails(cited, {
            driverName: body.driverName,
            driverSurname: body.driverSurname,
            driverIdNumber: body.driverIdNumber,
            driverPhone1: body.driverPhone1,
            driverPhone2: body.driverPhone2,
            driverPhone3: body.driverPhone3,
            driverPassportNumber: body.driverPassportNumber,
          });
          // Issue 21's rule outcomes (watchlist, rig, document rules): a `block` refuses the entry
          // with its refusalReason whatever the client asked, through decideEntry below.
          const screening = await watchlist.screen(tx, actor.tenantId, {
            plateNumbers: [body.plateNumber, ...body.trailerPlates],
            idNumber: driver.details.driverIdNumber ?? body.driverIdNumber,
            company: cited.ticket?.transporter ?? body.transportName ?? vehicle?.company ?? null,
          });
          const crossChecks = crossCheckWarnings({
            plateNumber: body.plateNumber,
            readings: cited,
            registeredDriverName: vehicle?.driverName ?? null,
            today: siteDay(clock.now()),
          });
          const ruleModes = await documentRules.rulesOf(tx, actor.tenantId);
          const driverIdNumber = driver.details.driverIdNumber ?? body.driverIdNumber ?? null;
          const inductionStatus =
            ruleModes.induction_missing_or_expired !== 'off' && driverIdNumber
              ? (await induction.validityWithin(tx, actor.tenantId, driverIdNumber)).status
              : null;
          const ruleOutcomes: RuleOutcome[] = [
            ...screening.outcomes,
            ...checkRig({
              rig: vehicle?.trailers ?? null,
              trailerPlates: body.trailerPlates,
              trailerDiscs: cited.trailerDiscs ?? [],
              ticketTrailerRegs: cited.ticket?.trailerRegs ?? null,
              today: siteDay(clock.now()),
            }),
            ...evaluateDocumentRules(
              {
                crossChecks,
                gvmKg: gvmKilograms(cited.disc?.gvm ?? null),
                licenceCited: cited.licence !== null,
                prdpExpiry: cited.licence?.prdpExpiry ?? null,
                prdpCodes: cited.licence?.prdpCode ?? null,
                driverIdNumber,
                induction: inductionStatus === 'none' ? 'missing' : inductionStatus,
              },
              ruleModes,
            ),
          ];
          const rules: RuleOutcome[] = [
            ...ruleOutcomes,
            ...(await offlineOutcomes(tx, actor.tenantId, body)),
          ];
          for (const source of ruleSources)
            rules.push(...(await source(tx, actor, { body, vehicle, driver: driver.details })));
          // The server derives grant or refusal from what it holds (entry-decision.ts).
          const decision = decideEntry(
            {
              flow: flowOf(body.category),
              vehicle: vehicle && {
                approved: isApproved,
                hasFaceReference:
                  vehicle.driverPhotoKey !== null || vehicle.driverFaceDescriptor !== null,
              },
              face: faceOf(face.evidence, own),
            },
            body,
            rules,
            { typedSources: TYPED_RULE_SOURCES },
          );
          const warnings: EntryWarning[] = [
            ...watchlistWarnings(ruleOutcomes),
            ...documentRuleWarnings(ruleOutcomes),
            ...rigWarnings(ruleOutcomes),
            ...face.warnings,
            ...faceClaimWarnings(body, face.evidence),
            ...(body.vehicleApproved && !isApproved
              ? [
                  {
                    code: 'vehicle_claim_contradicted' as const,
                    severity: 'warning' as const,
                    message: 'The client reported the vehicle as approved; the register does not.',
                    fields: ['vehicleApproved'],
                  },
                ]
              : []),
            ...decision.warnings,
            ...plate.warnings,
            ...crossChecks,
            ...driver.warnings,
            ...body.warnings.map((message) => ({
              code: 'guard_note' as const,
              severity: 'info' as const,
              message,
              fields: [],
            })),
          ];
          const row = await repository.insert(tx, {
            tenantId: actor.tenantId,
            id: entryId,
            timestamp: clock.now(),
            category: body.category,
            plateNumber: body.plateNumber,
            extractedPlate: plate.extractedPlate,
            vehicleApproved: isApproved,
            faceVerified: face.evidence?.faceVerified ?? false,
            entryGranted: decision.entryGranted,
            matchScore: face.evidence?.matchScore ?? null,
            refusalReason: decision.refusalReason,
            ...driver.details,
            driverName: driver.details.driverName ?? vehicle?.driverName ?? null,
            transportName:
              cited.ticket?.transporter ?? body.transportName ?? vehicle?.company ?? null,
            vehicleLicenceDiscId: body.vehicleLicenceDiscId,
            identityDocumentId: body.identityDocumentId,
            driversLicenceId: body.driversLicenceId,
            passportRecordId: body.passportRecordId,
            weighbridgeTicketId: body.weighbridgeTicketId,
            trailerPlates: body.trailerPlates,
            trailerLicenceDiscIds: body.trailerLicenceDiscIds,
            ...imageKeys,
            warnings,
            recordedBy: actor.userId,
            recordedByName: actor.fullName ?? actor.username,
            idempotencyKey: idempotencyKey ?? null,
            requestHash,
            siteId: place?.siteId ?? null,
            gateId: place?.gateId ?? null,
          });
          // Issue 18: a vehicle the guard admitted offline came in whatever the server decides
          // now, so its visit opens (it stays On Site until its exit) beside the refusal's alert.
          // Its time is the device's: the server received nothing while the gate was offline.
          // Otherwise the visit's time is the server's (capture receipt or this entry).
          const admittedOffline = body.recordedOffline && body.entryGranted;
          if (places) {
            const offlineAt =
              body.recordedOffline && body.capturedAt ? new Date(body.capturedAt) : undefined;
            await places.onEntryLogged(
              tx,
              actor,
              admittedOffline ? { ...row, entryGranted: true } : row,
              offlineAt,
            );
          }
          await audit.record(tx, {
            tenantId: actor.tenantId,
            actorUserId: actor.userId,
            action: row.entryGranted ? 'entry.granted' : 'entry.refused',
            targetType: 'entry_log',
            targetId: row.id,
            ip,
            details: {
              ...(face.evidence ? { faceComparisonId: face.evidence.comparisonId } : {}),
              ...(row.refusalReason ? { refusalReason: row.refusalReason } : {}),
              warnings: warnings.map((warning) => warning.code),
              // Issue 21: the rule outcomes the decision took (the alerts module's hook, with
              // the `watchlist.hit` events recorded below).
              ruleOutcomes,
              ...(screening.hits.length > 0 ? { watchlistHits: screening.hits } : {}),
            },
          });
          if (!row.entryGranted) await alerts?.entryRefused(tx, row);
          if (admittedOffline && !row.entryGranted) {
            await alerts?.raiseAlert(tx, {
              tenantId: row.tenantId,
              kind: 'offline_entry_refused',
              entryId: row.id,
              plateNumber: row.plateNumber,
              message: `${row.plateNumber} was admitted offline; the server refuses the entry (${(
                row.refusalReason ?? 'refused'
              ).replaceAll('_', ' ')}). The vehicle stays on the On Site list until its exit.`,
              dedupeKey: `offline_entry_refused:${row.id}`,
            });
          }
          if (row.refusalReason === 'document_rule') {
            await alerts?.raiseAlert(tx, {
              tenantId: row.tenantId,
              kind: 'document_rule_blocked',
              entryId: row.id,
              plateNumber: row.plateNumber,
              message: `A document rule refused ${row.plateNumber}: ${
                ruleOutcomes.find(
                  (outcome) =>
                    outcome.source === DOCUMENT_RULES_SOURCE && outcome.verdict === 'block',
                )?.message ?? 'see the entry'
              }`,
              dedupeKey: `document_rule_blocked:${row.id}`,
            });
          }
          await watchlist.recordHits(tx, actor, screening, {
            gatePath: 'grant-entry',
            targetType: 'entry_log',
            targetId: row.id,
            decision: row.entryGranted ? 'granted' : 'refused',
            siteId: row.siteId,
            ip,
          });
          await corrections.record(tx, actor, { entryLogId: row.id }, body.corrections, ip);
          // Issue 28: last in the transaction, so the fact carries the entry (and the visit it
          // opened) exactly as committed; granted or refused, from every gate path.
          await siteFacts?.record(tx, {
            tenantId: row.tenantId,
            gateId: row.gateId,
            kind: 'entry',
            recordedAt: row.timestamp,
            entryLogId: row.id,
          });
          return row;
        });
        // Issue 17: once the entry is logged, a grant at a gate with a barrier opens it (never throws).
        const barrier =
          entry.entryGranted && barriers
            ? await barriers.openForEntry({
                tenantId: actor.tenantId,
                actorUserId: actor.userId,
                entryId: entry.id,
                gateId: entry.gateId,
                ip,
              })
            : null;
        return { entry, isReplay: false, barrier };
      } catch (error) {
        await Promise.all(keysOf(stored).map((key) => images.deleteImage(key)));
        if (idempotencyKey && isUniqueViolation(error, 'entry_logs_one_per_idempotency_key')) {
          // A concurrent retry won the race: answer with its entry.
          const winner = await database.withTenant(actor.tenantId, (tx) =>
            repository.findByIdempotencyKey(tx, actor.tenantId, idempotencyKey),
          );
          if (winner) return { entry: assertSameRequest(winner, requestHash), isReplay: true };
        }
        if (findPgError(error)?.code === '23503') {
          throw new AppError(
            'INVALID',
            'A document id in the entry does not exist. Save the document first.',
          );
        }
        throw error;
      }
    },

    async listEntries(
      actor: Actor,
      { limit, cursor, siteId }: { limit: number; cursor?: string; siteId?: string },
    ) {
      const after = readPageCursor(cursor);
      // Issue 21: each entry with its supervisor's override, if any; issue 16: the caller's sites.
      const rows = await database.withTenant(actor.tenantId, async (tx) =>
        repository.list(tx, actor.tenantId, limit + 1, after, await listedSites(tx, actor, siteId)),
      );
      return toPage(rows, limit);
    },

    async dashboard(actor: Actor, { siteId }: { siteId?: string } = {}) {
      return database.withTenant(actor.tenantId, async (tx) => {
        const siteIds = await listedSites(tx, actor, siteId);
        const extra = {
          registeredVehicles: vehicles.activeCountSql(actor.tenantId),
          activeUsers: users.activeCountSql(actor.tenantId),
          ...(places && { onSiteNow: places.onSiteCountSql(actor.tenantId, siteIds) }),
        };
        // Issue 16: one site's (or a guard's sites') figures are counted from its entries; the
        // per-day counters are the whole tenant's.
        const counts =
          siteIds === null
            ? await repository.counts(tx, actor.tenantId, siteDay(clock.now()), extra)
            : await repository.countsForSites(
                tx,
                actor.tenantId,
                siteIds,
                siteDay(clock.now()),
                extra,
              );
        const recent = await repository.list(
          tx,
          actor.tenantId,
          RECENT_ENTRIES,
          undefined,
          siteIds,
        );
        return {
          totalEntries: counts.total,
          todayEntries: counts.today,
          approvedEntries: counts.approved,
          grantedEntries: counts.granted,
          faceVerifiedEntries: counts.faceVerified,
          // Every attempt counts (refusals are logged): Approval Rate = granted ÷ total.
          approvalRate: percent(counts.granted, counts.total),
          verificationRate: percent(counts.faceVerified, counts.total),
          registeredVehicles: counts.registeredVehicles,
          activeUsers: counts.activeUsers,
          ...('onSiteNow' in counts && { onSiteNow: counts.onSiteNow }),
          recent,
        };
      });
    },
  };
}

/** The face as the decision sees it: a comparison's verdict, an engine failure, or nothing. */
function faceOf(evidence: FaceEvidence | null, own: OwnComparison): EntryEvidence['face'] {
  if (evidence)
    return { kind: 'compared', verified: evidence.faceVerified, matchScore: evidence.matchScore };
  if (own && !own.ok) return { kind: 'error', message: own.message };
  return { kind: 'none' };
}

function assertSameRequest(entry: EntryLogRow, requestHash: string): EntryLogRow {
  if (entry.requestHash !== requestHash) {
    throw new AppError('CONFLICT', 'This Idempotency-Key was already used for a different entry.');
  }
  return entry;
}
