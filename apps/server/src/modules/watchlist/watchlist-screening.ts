import type { EntryWarning, RuleOutcome } from '@boomgate/contracts/entry-checks';
import {
  COVERT_BLOCK_MESSAGE,
  type WatchlistKind,
  type WatchlistSeverity,
  watchlistMatchKey,
} from '@boomgate/contracts/watchlist';

import { maskIdentifier } from '@/platform/personal-data';

export type { RuleOutcome };

/** Who or what came to the gate, as far as the watchlist is concerned. */
export type WatchlistSubject = {
  plateNumbers: readonly string[];
  idNumber?: string | null;
  company?: string | null;
};

export type WatchlistCandidate = {
  id: string;
  kind: WatchlistKind;
  value: string;
  matchKey: string;
  reason: string;
  severity: WatchlistSeverity;
  covert: boolean;
  expiresAt: Date | null;
};

/**
 * One hit, in full (the reason too, covert or not). The hook for alerts: every hit is recorded as
 * an audit event `watchlist.hit` with these fields as details, and listed in the entry's audit
 * details as `watchlistHits`. Never sent to a guard.
 */
export type WatchlistHit = {
  watchlistEntryId: string;
  kind: WatchlistKind;
  value: string;
  reason: string;
  severity: WatchlistSeverity;
  covert: boolean;
};

export type WatchlistScreening = { outcomes: RuleOutcome[]; hits: WatchlistHit[] };

export const WATCHLIST_SOURCE = 'watchlist';

const KIND_LABEL: Record<WatchlistKind, string> = {
  plate: 'Plate',
  idNumber: 'Driver ID number',
  company: 'Transport company',
};

/**
 * A watched ID or passport number is quoted masked, as the screens show it (issue 26): the message
 * is stored on the entry (warnings) and the incoming request, where it would be the number in plain
 * text beside its sealed column.
 */
const shownValue = (candidate: Pick<WatchlistCandidate, 'kind' | 'value'>) =>
  candidate.kind === 'idNumber' ? maskIdentifier(candidate.value) : candidate.value;

/**
 * A message stored before issue 26 quoting the number in full. PostgreSQL's regular expressions
 * read this pattern the same way: the lookup naming the tenants still to mask uses it as it is.
 */
export const UNMASKED_WATCHLIST_MESSAGE = `^${KIND_LABEL.idNumber} ([^*].*?) is on the watchlist \\(`;

/**
 * The message with its number masked as new messages have it, or the message as it is. Masking only
 * replaces characters with `*` (the erase-only trigger on entries checks exactly that).
 */
export function maskWatchlistMessage(message: string): string {
  const match = new RegExp(UNMASKED_WATCHLIST_MESSAGE).exec(message);
  if (!match?.[1]) return message;
  const prefix = `${KIND_LABEL.idNumber} `;
  return `${prefix}${maskIdentifier(match[1])}${message.slice(prefix.length + match[1].length)}`;
}

/** The keys a subject is looked up by (the repository's `candidates`). */
export function subjectKeys(
  subject: WatchlistSubject,
): { kind: WatchlistKind; matchKey: string }[] {
  const keys: { kind: WatchlistKind; matchKey: string }[] = [];
  for (const plate of subject.plateNumbers)
    keys.push({ kind: 'plate', matchKey: watchlistMatchKey('plate', plate) });
  if (subject.idNumber)
    keys.push({ kind: 'idNumber', matchKey: watchlistMatchKey('idNumber', subject.idNumber) });
  if (subject.company)
    keys.push({ kind: 'company', matchKey: watchlistMatchKey('company', subject.company) });
  return keys.filter((key) => key.matchKey.length > 0);
}

/**
 * Pure: which of the candidates match the subject at `now`, and the outcomes for the decision.
 * An expired entry never matches. A covert alert is a hit (logged) with no outcome: the guard is
 * shown nothing. A covert block's message is only "Manual check required".
 */
export function screenWatchlist(
  subject: WatchlistSubject,
  candidates: readonly WatchlistCandidate[],
  now: Date,
): WatchlistScreening {
  const keys = new Set(subjectKeys(subject).map((key) => `${key.kind}:${key.matchKey}`));
  const hits: WatchlistHit[] = [];
  const outcomes: RuleOutcome[] = [];
  for (const candidate of candidates) {
    if (!keys.has(`${candidate.kind}:${candidate.matchKey}`)) continue;
    if (candidate.expiresAt && candidate.expiresAt.getTime() <= now.getTime()) continue;
    hits.push({
      watchlistEntryId: candidate.id,
      kind: candidate.kind,
      value: candidate.value,
      reason: candidate.reason,
      severity: candidate.severity,
      covert: candidate.covert,
    });
    if (candidate.covert && candidate.severity === 'alert') continue;
    outcomes.push({
      source: WATCHLIST_SOURCE,
      verdict: candidate.severity === 'block' ? 'block' : 'warn',
      refusalReason: 'watchlist',
      code: candidate.covert ? 'watchlist_covert' : `watchlist_${candidate.kind}`,
      message: candidate.covert
        ? COVERT_BLOCK_MESSAGE
        : `${KIND_LABEL[candidate.kind]} ${shownValue(candidate)} is on the watchlist (${
            candidate.severity
          }): ${candidate.reason}`,
    });
  }
  // One "Manual check required" is enough, however many covert entries matched.
  return {
    hits,
    outcomes: outcomes.filter(
      (outcome, index) =>
        outcome.code !== 'watchlist_covert' ||
        outcomes.findIndex((other) => other.code === 'watchlist_covert') === index,
    ),
  };
}

/** The entry's warnings for the outcomes (a block is critical, an alert a warning). */
export function watchlistWarnings(outcomes: readonly RuleOutcome[]): EntryWarning[] {
  return outcomes
    .filter((outcome) => outcome.source === WATCHLIST_SOURCE)
    .map((outcome) => ({
      code: 'watchlist_hit' as const,
      severity: outcome.verdict === 'block' ? ('critical' as const) : ('warning' as const),
      message: outcome.message,
      fields:
        outcome.code === 'watchlist_plate'
          ? ['plateNumber']
          : outcome.code === 'watchlist_idNumber'
            ? ['driverIdNumber']
            : outcome.code === 'watchlist_company'
              ? ['transportName']
              : [],
    }));
}
