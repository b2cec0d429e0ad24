/**
 * Document rules (issue 21): each organization sets every rule to block, warn or off
 * (GET/PATCH /api/settings/rules); the gate's decision evaluates them with
 * `evaluateDocumentRules` (pure) and applies the outcomes.
 * Owns: document_rule_settings.
 */
import { createDocumentRulesRepository } from './document-rules.repository';
import { documentRulesRoutes } from './document-rules.routes';
import {
  type DocumentRulesServiceDeps,
  createDocumentRulesService,
} from './document-rules.service';

export type { DocumentRulesService } from './document-rules.service';
export {
  DOCUMENT_RULES_SOURCE,
  type DocumentRuleFacts,
  documentRuleWarnings,
  evaluateDocumentRules,
  gvmKilograms,
} from './document-rule-evaluation';

export function createDocumentRulesModule(deps: Omit<DocumentRulesServiceDeps, 'repository'>) {
  const service = createDocumentRulesService({
    ...deps,
    repository: createDocumentRulesRepository(),
  });
  return { service, routes: documentRulesRoutes(service) };
}
