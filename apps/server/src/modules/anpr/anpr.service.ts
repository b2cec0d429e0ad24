import { createHash } from 'node:crypto';

import type { CreateAnprCameraBody, UpdateAnprCameraBody } from '@boomgate/contracts/anpr';
import { normalisePlate } from '@boomgate/contracts/plates';

import type { RaiseAlert } from '@/modules/alerts';
import type { ApprovedVehiclesService } from '@/modules/approved-vehicles';
import type { AuditService } from '@/modules/audit';
import type { ImagesService } from '@/modules/images';
import type { Actor } from '@/modules/sessions';
import { type SitesService, inScope } from '@/modules/sites';
import type { TruckListService } from '@/modules/truck-list';
import type { Clock } from '@/platform/clock';
import type { Database, DbExecutor } from '@/platform/db';
import { AppError } from '@/platform/errors';
import { newId, newToken } from '@/platform/ids';

import type { AnprRepository } from './anpr.repository';

export type AnprServiceDeps = {
  database: Pick<Database, 'withTenant' | 'withoutTenant'>;
  repository: AnprRepository;
  vehicles: Pick<ApprovedVehiclesService, 'findByPlate' | 'isApproved'>;
  truckList: Pick<TruckListService, 'recordRead'>;
  images: Pick<ImagesService, 'storeImage' | 'deleteImage'>;
  audit: Pick<AuditService, 'record'>;
  /** Issue 16: a camera is at a site (and maybe a gate) of the caller's. */
  sites: Pick<SitesService['inTransaction'], 'scopeOf' | 'placeOf'>;
  clock: Clock;
  /** Issue 22: a camera silent this long raises a device_offline alert (the offline scan). */
  offlineAlertSeconds: number;
  alerts?: { raiseAlert: RaiseAlert };
};

/** Cameras the offline scan looks at per run (the oldest silences first). */
const OFFLINE_SCAN_BATCH = 200;

export type AnprService = ReturnType<typeof createAnprService>;

/** A plate read as a camera reports it, whatever the vendor format. */
export type PlateRead = {
  plateNumber: string;
  /** The camera's own time; used only when it is within a day of ours (camera clocks drift). */
  seenAt: Date | null;
  /** A JPEG/PNG/WebP: bytes from a multipart part, or base64 / a data URL from JSON. */
  image: Buffer | string | null;
  truckNumber: string | null;
  transportName: string | null;
  source: string;
};

const MAX_CAMERA_CLOCK_SKEW_MS = 24 * 3_600_000;

export const hashCameraToken = (token: string) => createHash('sha256').update(token).digest('hex');
export const unknownCamera = () => new AppError('NOT_FOUND', 'Unknown camera.');
const cameraNotFound = () => new AppError('NOT_FOUND', 'Camera not found.');

export function createAnprService({
  database,
  repository,
  vehicles,
  truckList,
  images,
  audit,
  sites,
  clock,
  offlineAlertSeconds,
  alerts,
}: AnprServiceDeps) {
  /** The camera, if it is at one of the caller's sites (another site's answers 404, as unknown). */
  async function visibleCamera(tx: DbExecutor, actor: Actor, id: string) {
    const camera = await repository.findById(tx, actor.tenantId, id);
    if (!camera || !inScope(await sites.scopeOf(tx, actor), camera.siteId)) throw cameraNotFound();
    return camera;
  }

  return {
    async createCamera(actor: Actor, body: CreateAnprCameraBody, ip?: string) {
      const token = newToken();
      const camera = await database.withTenant(actor.tenantId, async (tx) => {
        // The gate named fixes the site; neither named: the default site (or the caller's only).
        const place = await sites.placeOf(tx, actor, { siteId: body.siteId, gateId: body.gateId });
        const row = await repository.insert(tx, {
          tenantId: actor.tenantId,
          id: newId(),
          name: body.name,
          tokenHash: hashCameraToken(token),
          createdAt: clock.now(),
          createdBy: actor.userId,
          siteId: place.siteId,
          gateId: body.gateId ? place.gateId : null,
        });
        await audit.record(tx, {
          tenantId: actor.tenantId,
          actorUserId: actor.userId,
          action: 'anpr-camera.created',
          targetType: 'anpr_camera',
          targetId: row.id,
          ip,
          details: { siteId: row.siteId, ...(row.gateId && { gateId: row.gateId }) },
        });
        return row;
      });
      return { camera, token };
    },

    /** The cameras at the caller's sites (every camera for a caller not limited to sites). */
    listCameras: (actor: Actor) =>
      database.withTenant(actor.tenantId, async (tx) =>
        repository.list(tx, actor.tenantId, await sites.scopeOf(tx, actor)),
      ),

    /** Renames a camera or moves it to another site or gate (both the caller's). */
    updateCamera: (actor: Actor, id: string, body: UpdateAnprCameraBody, ip?: string) =>
      database.withTenant(actor.tenantId, async (tx) => {
        const camera = await visibleCamera(tx, actor, id);
        let place: { siteId: string | null; gateId: string | null } = {
          siteId: camera.siteId,
          gateId: camera.gateId,
        };
        if (body.gateId) {
          place = await sites.placeOf(tx, actor, { siteId: body.siteId, gateId: body.gateId });
        } else if (body.siteId) {
          // A move to another site leaves the old site's gate behind (unless it is that site's).
          const site = await sites.placeOf(tx, actor, { siteId: body.siteId });
          const keepsGate = body.gateId !== null && site.siteId === camera.siteId;
          place = { siteId: site.siteId, gateId: keepsGate ? camera.gateId : null };
        } else if (body.gateId === null) {
          place = { siteId: camera.siteId, gateId: null };
        }
        const row = await repository.update(tx, actor.tenantId, id, {
          ...(body.name && { name: body.name }),
          siteId: place.siteId,
          gateId: place.gateId,
        });
        if (!row) throw cameraNotFound();
        await audit.record(tx, {
          tenantId: actor.tenantId,
          actorUserId: actor.userId,
          action: 'anpr-camera.updated',
          targetType: 'anpr_camera',
          targetId: row.id,
          ip,
          details: {
            fields: Object.keys(body),
            siteId: row.siteId,
            ...(row.gateId && { gateId: row.gateId }),
          },
        });
        return row;
      }),

    async deleteCamera(actor: Actor, id: string, ip?: string) {
      await database.withTenant(actor.tenantId, async (tx) => {
        await visibleCamera(tx, actor, id);
        if (!(await repository.delete(tx, actor.tenantId, id))) {
          throw cameraNotFound();
        }
        await audit.record(tx, {
          tenantId: actor.tenantId,
          actorUserId: actor.userId,
          action: 'anpr-camera.deleted',
          targetType: 'anpr_camera',
          targetId: id,
          ip,
        });
      });
    },

    /**
     * A camera's event that is not a plate read (a heartbeat, another event type): it shows the
     * camera is alive, so its last contact moves on and no offline alert is raised for it.
     */
    noteContact: (camera: { tenantId: string; cameraId: string }) =>
      database.withTenant(camera.tenantId, (tx) =>
        repository.touch(tx, camera.tenantId, camera.cameraId, clock.now()),
      ),

    /**
     * The anpr.offline-scan job (issue 22): every camera silent longer than
     * ANPR_OFFLINE_ALERT_SECONDS raises one device_offline alert per silence (keyed by its last
     * contact). A camera that never reported is not watched yet.
     */
    async offlineScan(): Promise<number> {
      if (!alerts) return 0;
      const before = new Date(clock.now().getTime() - offlineAlertSeconds * 1000);
      const silent = await database.withoutTenant((tx) =>
        repository.listOfflineCameras(tx, before, OFFLINE_SCAN_BATCH),
      );
      let raised = 0;
      for (const { tenantId, cameraId, name, lastSeenAt } of silent) {
        const row = await database.withTenant(tenantId, (tx) =>
          alerts.raiseAlert(tx, {
            tenantId,
            kind: 'device_offline',
            message: `The number-plate camera ${name} has not been heard from since ${lastSeenAt.toISOString()}: check its power and network, and log vehicles by hand meanwhile.`,
            dedupeKey: `device_offline:camera:${cameraId}:${lastSeenAt.getTime()}`,
          }),
        );
        if (row) raised++;
      }
      return raised;
    },

    /** The camera a push URL's token belongs to; an unknown token answers 404. */
    async authenticateCamera(token: string) {
      const camera = await database.withoutTenant((tx) =>
        repository.findCameraByTokenHash(tx, hashCameraToken(token)),
      );
      if (!camera) throw unknownCamera();
      return camera;
    },

    /**
     * A plate read becomes a truck-list entry: 'contracted' when the normalised plate is an
     * approved vehicle that is active and in date, else 'other'. The picture is stored (re-encoded,
     * without metadata) before the transaction and removed again if the transaction fails.
     */
    async recordRead(camera: { tenantId: string; cameraId: string }, read: PlateRead) {
      const plateNumber = normalisePlate(read.plateNumber);
      if (plateNumber.length < 2 || plateNumber.length > 10) {
        throw new AppError('INVALID', 'The plate number must have 2 to 10 letters or digits.');
      }
      const now = clock.now();
      const timestamp =
        read.seenAt && Math.abs(read.seenAt.getTime() - now.getTime()) <= MAX_CAMERA_CLOCK_SKEW_MS
          ? read.seenAt
          : now;
      const imageKey = read.image
        ? await images.storeImage(
            camera.tenantId,
            'truck-list',
            typeof read.image === 'string' ? read.image : read.image.toString('base64'),
          )
        : null;
      try {
        return await database.withTenant(camera.tenantId, async (tx) => {
          const vehicle = await vehicles.findByPlate(tx, camera.tenantId, plateNumber);
          const isApproved = vehicles.isApproved(vehicle);
          // Issue 16: the read is at the camera's site (the database fills the default site).
          const row = await repository.findById(tx, camera.tenantId, camera.cameraId);
          const entry = await truckList.recordRead(tx, {
            tenantId: camera.tenantId,
            siteId: row?.siteId ?? null,
            timestamp,
            truckNumber: read.truckNumber,
            plateNumber,
            category: isApproved ? 'contracted' : 'other',
            transportName: read.transportName ?? vehicle?.company ?? null,
            imageKey,
            source: read.source,
          });
          await repository.touch(tx, camera.tenantId, camera.cameraId, now);
          return { entry, isApproved };
        });
      } catch (error) {
        if (imageKey) await images.deleteImage(imageKey);
        throw error;
      }
    },
  };
}
