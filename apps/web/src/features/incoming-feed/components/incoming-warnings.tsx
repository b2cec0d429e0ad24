import { TriangleAlertIcon } from 'lucide-react';

import { DOCUMENT_RULE_CODES } from '@boomgate/contracts/document-rules';
import type { EntryWarningCode } from '@boomgate/contracts/entry-checks';
import type { IncomingWarning } from '@boomgate/contracts/webhooks';

import { SOURCE_LANGUAGE, useTranslation } from '@/lib/i18n';

const DOCUMENT_RULE_CODE_SET: ReadonlySet<string> = new Set(DOCUMENT_RULE_CODES);

/**
 * Issue 21: the kind of a stored feed warning, as the result panels name it: a document rule's
 * code is a `document_rule`, a rig or ticket check's (`trailer_…`, `ticket_…`) a `rig_check`.
 */
export function incomingWarningKind(code: string): EntryWarningCode | null {
  if (DOCUMENT_RULE_CODE_SET.has(code)) return 'document_rule';
  if (code.startsWith('trailer_') || code.startsWith('ticket_')) return 'rig_check';
  return null;
}

/**
 * The warnings a completion was accepted with (stored on the request, issue 21), in the result
 * panels' style: amber, the server's English sentence; in another language the warning's kind,
 * by its code, goes in front of it.
 */
export function IncomingWarnings({ warnings }: { warnings: readonly IncomingWarning[] }) {
  const { t, i18n } = useTranslation('incomingFeed');
  const { t: tEntries } = useTranslation('entries');
  if (warnings.length === 0) return null;
  return (
    <ul
      aria-label={t('warnings', { count: warnings.length })}
      data-testid="request-warnings"
      className="mt-1 grid gap-0.5 text-xs text-amber-700 dark:text-amber-300"
    >
      {warnings.map((warning, index) => {
        const kind = incomingWarningKind(warning.code);
        return (
          <li key={`${warning.code}-${index}`} className="flex items-start gap-1">
            <TriangleAlertIcon aria-hidden className="mt-0.5 size-3.5 shrink-0" />
            <span>
              {i18n.language === SOURCE_LANGUAGE || !kind
                ? warning.message
                : `${tEntries(`warnings.codes.${kind}`)}: ${warning.message}`}
            </span>
          </li>
        );
      })}
    </ul>
  );
}
