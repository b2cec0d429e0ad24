import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import { DocumentRulesSchema, UpdateDocumentRulesSchema } from '@boomgate/contracts/document-rules';

import { rolesAccess } from '@/platform/access';

import type { DocumentRulesService } from './document-rules.service';

const RULE_CODES_HELP =
  'Rule codes: licence_expired, prdp_missing_or_expired, licence_code_invalid, disc_expired, disc_plate_mismatch, induction_missing_or_expired, passport_expired, id_number_invalid, driver_name_mismatch (see packages/contracts/src/document-rules.ts). Each is block, warn or off; off by default.';

export function documentRulesRoutes(service: DocumentRulesService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/settings/rules',
      {
        config: rolesAccess(['super_admin', 'tenant_admin', 'back_office']),
        schema: {
          tags: ['settings'],
          operationId: 'getDocumentRules',
          description: `The organization's document rules. ${RULE_CODES_HELP}`,
          response: { 200: DocumentRulesSchema },
        },
      },
      async (request) => service.read(request.actor),
    );

    app.patch(
      '/settings/rules',
      {
        config: rolesAccess(['super_admin', 'tenant_admin']),
        schema: {
          tags: ['settings'],
          operationId: 'updateDocumentRules',
          description: `Changes any subset of the rules; audited with before and after. ${RULE_CODES_HELP}`,
          body: UpdateDocumentRulesSchema,
          response: { 200: DocumentRulesSchema },
        },
      },
      async (request) => service.update(request.actor, request.body, request.ip),
    );
  };
}
