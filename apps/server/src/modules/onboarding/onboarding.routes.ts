import fastifyMultipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import {
  CreateDriverBodySchema,
  CreatedDriverSchema,
  LIVENESS_FRAME_MAX_CHARS,
  SelfOnboardedSchema,
  SelfOnboardingBodySchema,
} from '@boomgate/contracts/drivers';
import {
  IMPORT_COLUMNS,
  ImportPreviewSchema,
  ImportResultSchema,
  MAX_IMPORT_FILE_BYTES,
  MAX_IMPORT_ROWS,
  templateHeader,
} from '@boomgate/contracts/onboarding';

import { toApprovedVehicleDto } from '@/modules/approved-vehicles';
import { ONBOARDING_ROLES, toDriver } from '@/modules/drivers';
import type { ImagesService } from '@/modules/images';
import { rolesAccess } from '@/platform/access';
import { siteDay } from '@/platform/calendar';
import type { Clock } from '@/platform/clock';
import { attachment } from '@/platform/csv';
import { AppError } from '@/platform/errors';
import { IMAGE_BODY_LIMIT_BYTES } from '@/platform/images';

import type { OnboardingService, UploadedFile } from './onboarding.service';
import { csvTemplate, xlsxTemplate } from './template';

const officeStaff = rolesAccess(ONBOARDING_ROLES);

const COLUMNS_HELP = IMPORT_COLUMNS.map(
  (column) => `\`${templateHeader(column)}\` (${column.help})`,
).join(', ');

const UPLOAD_HELP =
  `\`multipart/form-data\` with one file part \`file\`: CSV (UTF-8, comma or semicolon) or XLSX ` +
  `(first sheet), at most 10MB and ${MAX_IMPORT_ROWS} rows. Columns: ${COLUMNS_HELP}. ` +
  'The type is taken from the content and must match the extension.';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The one file of a multipart upload; the size limit is enforced while it streams in. */
async function readUpload(request: FastifyRequest): Promise<UploadedFile> {
  if (!request.isMultipart()) {
    throw new AppError(
      'UNSUPPORTED_MEDIA_TYPE',
      'Upload the file as multipart/form-data in a part named "file".',
    );
  }
  const part = await request.file();
  if (!part) throw new AppError('INVALID', 'Choose a CSV or XLSX file to upload.');
  try {
    // The name is only echoed and audited: a bounded, printable copy.
    const fileName = part.filename.replace(/[^\p{L}\p{N} ._()-]/gu, '_').slice(0, 120);
    return { fileName, bytes: await part.toBuffer() };
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new AppError('PAYLOAD_TOO_LARGE', 'The file is larger than 10MB.');
    }
    throw error;
  }
}

/**
 * Company and self onboarding. Multipart is registered in this plugin only (like ANPR), for the
 * bulk file: one file of at most 10MB, and at most two small text fields (ignored).
 */
export function onboardingRoutes(
  service: OnboardingService,
  images: Pick<ImagesService, 'urlFor'>,
  clock: Clock,
): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(fastifyMultipart, {
      limits: { fileSize: MAX_IMPORT_FILE_BYTES, files: 1, parts: 3, fields: 2, fieldSize: 1024 },
      throwFileSizeLimit: true,
    });

    app.get(
      '/onboarding/template.csv',
      {
        config: officeStaff,
        schema: {
          tags: ['onboarding'],
          operationId: 'downloadOnboardingTemplateCsv',
          description: `The bulk template (header only). Columns: ${COLUMNS_HELP}.`,
          produces: ['text/csv'],
        },
      },
      async (_request, reply) =>
        reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', attachment('boomgate-drivers-template.csv'))
          .send(csvTemplate()),
    );

    app.get(
      '/onboarding/template.xlsx',
      {
        config: officeStaff,
        schema: {
          tags: ['onboarding'],
          operationId: 'downloadOnboardingTemplateXlsx',
          description:
            'The bulk template as a workbook: a Drivers sheet and an Instructions sheet.',
          produces: [XLSX_TYPE],
        },
      },
      async (_request, reply) =>
        reply
          .type(XLSX_TYPE)
          .header('content-disposition', attachment('boomgate-drivers-template.xlsx'))
          .send(await xlsxTemplate()),
    );

    app.post(
      '/onboarding/import/preview',
      {
        config: officeStaff,
        schema: {
          tags: ['onboarding'],
          operationId: 'previewOnboardingImport',
          summary: 'Validate a bulk file row by row; nothing is saved',
          description: UPLOAD_HELP,
          consumes: ['multipart/form-data'],
          response: { 200: ImportPreviewSchema },
        },
      },
      async (request) => service.preview(request.actor, await readUpload(request)),
    );

    app.post(
      '/onboarding/import',
      {
        config: officeStaff,
        schema: {
          tags: ['onboarding'],
          operationId: 'importOnboardingFile',
          summary: 'Import the valid rows of a bulk file in one transaction',
          description:
            `${UPLOAD_HELP} The file is validated again; every valid row becomes a driver (and, with ` +
            'a plate, an approved vehicle) in one transaction. Rows with errors are listed, not saved. ' +
            'An existing driver (ID number) or vehicle (plate) is reported, never overwritten.',
          consumes: ['multipart/form-data'],
          response: { 200: ImportResultSchema },
        },
      },
      async (request) => service.importFile(request.actor, await readUpload(request), request.ip),
    );

    app.post(
      '/onboarding/import/errors.csv',
      {
        config: officeStaff,
        schema: {
          tags: ['onboarding'],
          operationId: 'downloadOnboardingErrorReport',
          summary: 'The rejected rows of a bulk file with their errors, as CSV',
          description: `${UPLOAD_HELP} Cells a spreadsheet would run as a formula start with an apostrophe.`,
          consumes: ['multipart/form-data'],
          produces: ['text/csv'],
        },
      },
      async (request, reply) => {
        const csv = await service.errorReport(request.actor, await readUpload(request));
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', attachment('boomgate-import-errors.csv'))
          .send(csv);
      },
    );

    app.post(
      '/onboarding/drivers',
      {
        config: officeStaff,
        schema: {
          tags: ['onboarding'],
          operationId: 'createOnboardingDriver',
          summary: 'Add one driver (and the vehicle they bring) from the individual tab',
          body: CreateDriverBodySchema,
          response: { 201: CreatedDriverSchema },
        },
      },
      async (request, reply) => {
        const { driver, vehicle } = await service.createDriver(
          request.actor,
          request.body,
          request.ip,
        );
        return reply.code(201).send({
          driver: toDriver(driver, images),
          vehicle: vehicle ? toApprovedVehicleDto(vehicle, images, siteDay(clock.now())) : null,
        });
      },
    );

    app.post(
      '/onboarding/self',
      {
        config: officeStaff,
        // Two images (licence and selfie) and the four liveness captures, as data URLs.
        bodyLimit: IMAGE_BODY_LIMIT_BYTES * 2 + 4 * LIVENESS_FRAME_MAX_CHARS,
        schema: {
          tags: ['onboarding'],
          operationId: 'selfOnboard',
          summary: 'Store a self-onboarded driver; answers a signed reference for the QR code',
          body: SelfOnboardingBodySchema,
          response: { 201: SelfOnboardedSchema },
        },
      },
      async (request, reply) => {
        const { driver, reference } = await service.selfOnboard(
          request.actor,
          request.body,
          request.ip,
        );
        return reply.code(201).send({ driver: toDriver(driver, images), reference });
      },
    );
  };
}
