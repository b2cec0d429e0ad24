import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import {
  DataSubjectErasureSchema,
  DataSubjectExportSchema,
  DataSubjectRequestSchema,
  EmailSubjectExportSchema,
  EmailSubjectRequestSchema,
} from '@boomgate/contracts/privacy';

import { rolesAccess } from '@/platform/access';

import type { PrivacyService } from './privacy.service';

// The organization's own administrator answers data-subject requests (its information officer's
// delegate); operators and guards never see a whole person's record in one place. A whole person's
// record, or its erasure, also needs the password given in the last minutes (SEC-25).
const subjectAccess = rolesAccess(['tenant_admin'], { recentAuthentication: true });

export function privacyRoutes(service: PrivacyService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/data-subjects/export',
      {
        config: subjectAccess,
        schema: {
          tags: ['privacy'],
          operationId: 'exportDataSubject',
          description:
            'POPIA s23: everything the organization holds about a driver (by SA ID number) — driver ' +
            'record, approved vehicles, gate entries, documents, incoming entries — with image links ' +
            'and the audit trail of those records. Audited.',
          body: DataSubjectRequestSchema,
          response: { 200: DataSubjectExportSchema },
        },
      },
      async (request, reply) => {
        const exported = await service.exportSubject(
          request.actor,
          request.body.idNumber,
          request.ip,
        );
        return reply
          .header(
            'content-disposition',
            `attachment; filename="data-subject-${exported.exportedAt.slice(0, 10)}.json"`,
          )
          .send(exported);
      },
    );

    app.post(
      '/data-subjects/erase-biometrics',
      {
        config: subjectAccess,
        schema: {
          tags: ['privacy'],
          operationId: 'eraseDataSubjectBiometrics',
          description:
            'POPIA s11(3): the driver withdrew consent to biometrics. Deletes their face photos, ' +
            'face descriptors and the consent records at once; everything else stays. Safe to ' +
            'repeat. Audited.',
          body: DataSubjectRequestSchema,
          response: { 200: DataSubjectErasureSchema },
        },
      },
      async (request) => service.eraseBiometrics(request.actor, request.body.idNumber, request.ip),
    );

    app.post(
      '/data-subjects/erase',
      {
        config: subjectAccess,
        schema: {
          tags: ['privacy'],
          operationId: 'eraseDataSubject',
          description:
            'POPIA s24: erases the driver’s personal data and images; gate records stay, ' +
            'de-identified, and the audit trail stays. Safe to repeat. Audited.',
          body: DataSubjectRequestSchema,
          response: { 200: DataSubjectErasureSchema },
        },
      },
      async (request) => service.eraseSubject(request.actor, request.body.idNumber, request.ip),
    );

    // Issue 23: requests by e-mail address (scheduled report recipients are staff addresses).
    app.post(
      '/data-subjects/email/export',
      {
        config: subjectAccess,
        schema: {
          tags: ['privacy'],
          operationId: 'exportEmailSubject',
          description:
            'POPIA s23 for a person named by e-mail address (staff who receive scheduled report ' +
            'e-mails): every record of the organization naming the address. Audited.',
          body: EmailSubjectRequestSchema,
          response: { 200: EmailSubjectExportSchema },
        },
      },
      async (request, reply) => {
        const exported = await service.exportEmailSubject(
          request.actor,
          request.body.email,
          request.ip,
        );
        return reply
          .header(
            'content-disposition',
            `attachment; filename="data-subject-${exported.exportedAt.slice(0, 10)}.json"`,
          )
          .send(exported);
      },
    );

    app.post(
      '/data-subjects/email/erase',
      {
        config: subjectAccess,
        schema: {
          tags: ['privacy'],
          operationId: 'eraseEmailSubject',
          description:
            'POPIA s24 for a person named by e-mail address: takes the address off every ' +
            'scheduled report e-mail (a schedule left with no recipient is turned off). Safe to ' +
            'repeat. Audited.',
          body: EmailSubjectRequestSchema,
          response: { 200: DataSubjectErasureSchema },
        },
      },
      async (request) => service.eraseEmailSubject(request.actor, request.body.email, request.ip),
    );
  };
}
