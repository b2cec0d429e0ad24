import fastifyMultipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import {
  ANPR_PUSH_BODY_LIMIT_BYTES,
  type AnprCamera,
  AnprCameraIdParamsSchema,
  AnprCameraListSchema,
  AnprCameraSchema,
  AnprCameraTokenParamsSchema,
  AnprJsonReadSchema,
  AnprReadResultSchema,
  CreateAnprCameraBodySchema,
  CreatedAnprCameraSchema,
  UpdateAnprCameraBodySchema,
} from '@boomgate/contracts/anpr';
import { NoContentSchema } from '@boomgate/contracts/primitives';

import { publicAccess, rolesAccess } from '@/platform/access';
import { AppError } from '@/platform/errors';

import type { AnprService, PlateRead } from './anpr.service';
import type { AnprCameraRow } from './anpr.table';
import { parseHikvisionAlert } from './hikvision';

const adminAccess = rolesAccess(['tenant_admin', 'super_admin']);

const pushUrlFor = (token: string) => `/api/anpr/${token}`;

const toCamera = (row: AnprCameraRow): AnprCamera => ({
  id: row.id,
  name: row.name,
  createdAt: row.createdAt.toISOString(),
  lastSeenAt: row.lastSeenAt?.toISOString() ?? null,
  siteId: row.siteId,
  gateId: row.gateId,
});

/** Camera management for tenant admins: create (token shown once), list, delete. */
export function anprRoutes(service: AnprService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/anpr/cameras',
      {
        config: adminAccess,
        schema: {
          tags: ['anpr'],
          operationId: 'createAnprCamera',
          description:
            'Registers a number-plate camera. The response carries its secret push URL once; only a hash ' +
            'of the token is stored. Configure the camera (Hikvision: Event → Alarm Server / HTTP listening) ' +
            'to POST to it. Issue 16: `siteId` and/or `gateId` (a gate fixes its site) place the ' +
            "camera; its reads are that site's truck-list entries. Neither: the tenant's default " +
            "site (or the caller's only site). A site or gate outside the caller's sites is 404.",
          body: CreateAnprCameraBodySchema,
          response: { 201: CreatedAnprCameraSchema },
        },
      },
      async (request, reply) => {
        const { camera, token } = await service.createCamera(
          request.actor,
          request.body,
          request.ip,
        );
        return reply.code(201).send({ ...toCamera(camera), token, pushUrl: pushUrlFor(token) });
      },
    );

    app.get(
      '/anpr/cameras',
      {
        config: adminAccess,
        schema: {
          tags: ['anpr'],
          operationId: 'listAnprCameras',
          response: { 200: AnprCameraListSchema },
        },
      },
      async (request) => (await service.listCameras(request.actor)).map(toCamera),
    );

    app.patch(
      '/anpr/cameras/:id',
      {
        config: adminAccess,
        schema: {
          tags: ['anpr'],
          operationId: 'updateAnprCamera',
          description:
            'Renames a camera or moves it to another site or gate of the caller (issue 16). A new ' +
            "`siteId` without `gateId` clears the old site's gate; `gateId: null` clears the gate.",
          params: AnprCameraIdParamsSchema,
          body: UpdateAnprCameraBodySchema,
          response: { 200: AnprCameraSchema },
        },
      },
      async (request) =>
        toCamera(
          await service.updateCamera(request.actor, request.params.id, request.body, request.ip),
        ),
    );

    app.delete(
      '/anpr/cameras/:id',
      {
        config: adminAccess,
        schema: {
          tags: ['anpr'],
          operationId: 'deleteAnprCamera',
          params: AnprCameraIdParamsSchema,
          response: { 204: NoContentSchema },
        },
      },
      async (request, reply) => {
        await service.deleteCamera(request.actor, request.params.id, request.ip);
        return reply.code(204).send(null);
      },
    );
  };
}

const IgnoredEventSchema = z.object({ ignored: z.literal(true), eventType: z.string() });

const PUSH_HELP = `Plate reads pushed by a camera. The path token authenticates the camera (create one with
\`POST /api/anpr/cameras\`). Accepted bodies:

* **Hikvision ISAPI event push**: \`multipart/form-data\` with an \`EventNotificationAlert\` XML part
  (eventType \`ANPR\`, \`ANPR/licensePlate\`, \`dateTime\`) and the \`licensePlatePicture.jpg\` and/or
  \`detectionPicture.jpg\` JPEG parts; or the XML alone as \`application/xml\`. Heartbeats and other event
  types are acknowledged with 200 and ignored.
* **Generic JSON**: \`{ plateNumber, timestamp?, image? (base64 or data URL), truckNumber?, transportName? }\`.

Each read becomes a truck-list entry, \`contracted\` when the plate is an active approved vehicle, else \`other\`.
Limits: 5 MB per picture, 4 files, 12 parts, 12 MB in all.`;

const MULTIPART_LIMITS = {
  fileSize: 5 * 1024 * 1024,
  files: 4,
  parts: 12,
  fields: 8,
  fieldSize: 64 * 1024,
};
const XML_BODY_LIMIT_BYTES = 64 * 1024;

/**
 * `POST /api/anpr/{cameraToken}`: public, authenticated by the unguessable token. Multipart and
 * XML parsing are registered in this plugin only, with strict limits.
 */
export function anprPushRoutes(service: AnprService): FastifyPluginAsyncZod {
  return async (app) => {
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser(
      'application/json',
      { parseAs: 'string', bodyLimit: ANPR_PUSH_BODY_LIMIT_BYTES },
      (_request, body, done) => {
        try {
          done(null, JSON.parse(typeof body === 'string' ? body : body.toString('utf8')));
        } catch {
          done(
            Object.assign(new Error('Invalid JSON'), {
              statusCode: 400,
              code: 'FST_ERR_CTP_INVALID_JSON_BODY',
            }),
            undefined,
          );
        }
      },
    );
    app.addContentTypeParser(
      ['application/xml', 'text/xml'],
      { parseAs: 'string', bodyLimit: XML_BODY_LIMIT_BYTES },
      (_request, body, done) => done(null, typeof body === 'string' ? body : body.toString('utf8')),
    );
    await app.register(fastifyMultipart, { limits: MULTIPART_LIMITS, throwFileSizeLimit: true });

    app.post(
      '/anpr/:cameraToken',
      {
        config: publicAccess(),
        bodyLimit: ANPR_PUSH_BODY_LIMIT_BYTES,
        schema: {
          tags: ['anpr'],
          operationId: 'pushAnprRead',
          summary: 'Receive a plate read from a number-plate camera',
          description: PUSH_HELP,
          security: [],
          consumes: ['multipart/form-data', 'application/xml', 'text/xml', 'application/json'],
          params: AnprCameraTokenParamsSchema,
          body: z
            .union([AnprJsonReadSchema, z.string().describe('EventNotificationAlert XML')])
            .nullish(),
          response: { 201: AnprReadResultSchema, 200: IgnoredEventSchema },
        },
        // An unknown token answers 404 before a multipart body is read.
        async preValidation(request) {
          await service.authenticateCamera(
            (request.params as { cameraToken?: string }).cameraToken ?? '',
          );
        },
      },
      async (request, reply) => {
        const camera = await service.authenticateCamera(request.params.cameraToken);
        const source = `anpr:${camera.cameraId}`;
        let read: PlateRead | { ignored: string };
        if (request.isMultipart()) {
          read = await readHikvisionMultipart(request, source);
        } else if (typeof request.body === 'string') {
          read = fromHikvisionXml(request.body, null, source);
        } else if (request.body) {
          const body = request.body;
          read = {
            plateNumber: body.plateNumber,
            seenAt: body.timestamp ? new Date(body.timestamp) : null,
            image: body.image,
            truckNumber: body.truckNumber,
            transportName: body.transportName,
            source,
          };
        } else {
          throw new AppError('INVALID', 'Send a plate read as JSON, XML or multipart/form-data.');
        }
        if ('ignored' in read) {
          // A heartbeat or another event still shows the camera is alive (issue 22's offline scan).
          await service.noteContact(camera);
          return reply.code(200).send({ ignored: true, eventType: read.ignored });
        }
        const { entry, isApproved } = await service.recordRead(camera, read);
        return reply.code(201).send({
          id: entry.id,
          plateNumber: entry.plateNumber,
          category: entry.category,
          vehicleApproved: isApproved,
        });
      },
    );
  };
}

function fromHikvisionXml(
  xml: string,
  image: Buffer | null,
  source: string,
): PlateRead | { ignored: string } {
  let alert: ReturnType<typeof parseHikvisionAlert>;
  try {
    alert = parseHikvisionAlert(xml);
  } catch (error) {
    throw new AppError('INVALID', error instanceof Error ? error.message : 'Unreadable event.');
  }
  if (alert.eventType !== 'ANPR' || !alert.plateNumber) return { ignored: alert.eventType };
  return {
    plateNumber: alert.plateNumber,
    seenAt: alert.dateTime,
    image,
    truckNumber: null,
    transportName: null,
    source,
  };
}

/** The XML part plus the plate picture (preferred) or the overview picture. */
async function readHikvisionMultipart(request: FastifyRequest, source: string) {
  let xml: string | null = null;
  let platePicture: Buffer | null = null;
  let overview: Buffer | null = null;
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      const name = `${part.fieldname} ${part.filename}`.toLowerCase();
      const bytes = await part.toBuffer();
      if (part.mimetype.includes('xml') || name.includes('.xml')) xml = bytes.toString('utf8');
      else if (name.includes('licenseplatepicture')) platePicture = bytes;
      else overview ??= bytes;
    } else if (typeof part.value === 'string' && part.value.trimStart().startsWith('<')) {
      xml = part.value;
    }
  }
  if (!xml) throw new AppError('INVALID', 'The push has no EventNotificationAlert XML part.');
  return fromHikvisionXml(xml, platePicture ?? overview, source);
}
