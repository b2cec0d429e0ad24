import type { EntryLog } from '@boomgate/contracts/entry-logs';
import { COVERT_BLOCK_MESSAGE } from '@boomgate/contracts/watchlist';

/** Status texts for a refusal by the server's rules (issue 21; not in the spec). */
export const RULES_REFUSAL_STATUS = {
  watchlist: 'Entry refused - watchlist',
  documentRule: 'Entry refused - document rule',
  manualCheck: COVERT_BLOCK_MESSAGE,
} as const;

/**
 * Whether the server refused the stored entry by its own rules, and what the guard may be told.
 * A covert watchlist hit reads only "Manual check required", with no detail.
 */
export function rulesRefusal(
  entry: EntryLog,
): { status: string; detail: string | null; entryId: string } | null {
  if (entry.entryGranted) return null;
  if (entry.refusalReason === 'watchlist') {
    const hit = entry.warnings.find(
      (warning) => warning.code === 'watchlist_hit' && warning.severity === 'critical',
    );
    if (!hit || hit.message === COVERT_BLOCK_MESSAGE) {
      return { status: RULES_REFUSAL_STATUS.manualCheck, detail: null, entryId: entry.id };
    }
    return { status: RULES_REFUSAL_STATUS.watchlist, detail: hit.message, entryId: entry.id };
  }
  if (entry.refusalReason === 'document_rule') {
    const rule = entry.warnings.find((warning) => warning.severity === 'critical');
    return {
      status: RULES_REFUSAL_STATUS.documentRule,
      detail: rule?.message ?? null,
      entryId: entry.id,
    };
  }
  return null;
}
