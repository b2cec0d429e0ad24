import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { DocumentRulesSchema, type UpdateDocumentRules } from '@boomgate/contracts/document-rules';

import { request } from '@/lib/api-client';

export const documentRuleKeys = { settings: ['document-rules', 'settings'] as const };

export const documentRulesQuery = () =>
  queryOptions({
    queryKey: documentRuleKeys.settings,
    queryFn: ({ signal }) =>
      request('GET', '/api/settings/rules', { schema: DocumentRulesSchema, signal }),
  });

/** GET /api/settings/rules: every rule code with its setting (issue 21). */
export function useDocumentRules() {
  return useQuery(documentRulesQuery());
}

/** PATCH /api/settings/rules: one rule at a time from the screen; the answer is all of them. */
export function useUpdateDocumentRules() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateDocumentRules) =>
      request('PATCH', '/api/settings/rules', { schema: DocumentRulesSchema, body }),
    onSuccess: (rules) => queryClient.setQueryData(documentRuleKeys.settings, rules),
  });
}
