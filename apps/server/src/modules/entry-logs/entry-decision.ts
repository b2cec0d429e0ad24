import type { EntryWarning, RuleOutcome } from '@boomgate/contracts/entry-checks';
import type { EntryCategory } from '@boomgate/contracts/entry-logs';

/**
 * The outcome of one rule about an attempt (watchlist, document rules, rigs…), from contracts.
 * Rule sources are pure functions returning these; decideEntry combines them with the register and
 * the face evidence. `refusalReason` must be one of the contracts' REFUSAL_REASONS.
 */
export type { RuleOutcome };

/**
 * Which screen's flow the attempt follows. Spec §4: the auto gate (category `contracted`) refuses
 * an unregistered or expired vehicle and a face that does not match; the real gate (the larger
 * payload, category `visitor`) continues manually for an unregistered vehicle and takes the face
 * on capture without a check, so neither refuses there.
 */
export type EntryFlow = 'auto_gate' | 'real_gate';
export const flowOf = (category: EntryCategory): EntryFlow =>
  category === 'contracted' ? 'auto_gate' : 'real_gate';

/** What the server holds about the attempt when it saves it. */
export type EntryEvidence = {
  flow: EntryFlow;
  /** The register's vehicle for the plate; null when it has none. */
  vehicle: { approved: boolean; hasFaceReference: boolean } | null;
  /**
   * The face: a comparison the server made or holds (its verdict), a face the engine could not
   * compare, or nothing.
   */
  face:
    | { kind: 'compared'; verified: boolean; matchScore: number }
    | { kind: 'error'; message: string }
    | { kind: 'none' };
};

/** What the client asked for (its verdict claims are judged in entry-verdicts.ts). */
export type EntryRequest = { entryGranted: boolean; refusalReason?: string | null };

export type EntryDecision = {
  entryGranted: boolean;
  /** null when granted. */
  refusalReason: string | null;
  warnings: EntryWarning[];
};

/** The spec's own refusals (§4 automated gate flow), as rule outcomes of the built-in sources. */
export function evidenceOutcomes({ flow, vehicle, face }: EntryEvidence): RuleOutcome[] {
  if (flow !== 'auto_gate') return [];
  const block = (source: string, refusalReason: string, message: string): RuleOutcome[] => [
    { source, verdict: 'block', refusalReason, code: refusalReason, message },
  ];
  if (!vehicle) return block('register', 'not_registered', 'The vehicle is not pre-registered.');
  if (!vehicle.approved)
    return block('register', 'registration_expired', 'The vehicle registration has expired.');
  // A vehicle without a driver photo on file is granted without a face (spec §4).
  if (!vehicle.hasFaceReference) return [];
  if (face.kind === 'compared')
    return face.verified
      ? []
      : block('face', 'face_mismatch', `The face did not match (match ${face.matchScore}%).`);
  return block(
    'face',
    'face_error',
    face.kind === 'error'
      ? `The face could not be compared: ${face.message}`
      : 'No face comparison backs the entry: the driver has a photo on file.',
  );
}

/**
 * Grant or refuse, and why, from the evidence: the built-in sources (register, face) first, then
 * `rules` from other sources in the order given. Any block refuses; the stored reason is the first
 * block's, rules before the built-in ones (a watchlisted truck is refused as such even when it is
 * also unregistered). A guard may always refuse (guard_refused when no evidence refuses). A claim
 * of grant the evidence refuses is refused, with a warning; so is a refusal reason the evidence
 * does not show. Every rule's outcome is kept on the entry as a warning.
 */
export function decideEntry(
  evidence: EntryEvidence,
  request: EntryRequest,
  rules: readonly RuleOutcome[] = [],
  {
    typedSources = new Set<string>(),
  }: {
    /**
     * Sources that write their own typed warnings (watchlist_hit, document_rule, rig_check: a
     * covert watchlist hit must not be described): their outcomes decide but are not restated.
     */
    typedSources?: ReadonlySet<string>;
  } = {},
): EntryDecision {
  const outcomes = [...rules, ...evidenceOutcomes(evidence)];
  const blocks = outcomes.filter((outcome) => outcome.verdict === 'block');
  const first = blocks[0];
  const described = rules.filter((rule) => !typedSources.has(rule.source));
  const warnings: EntryWarning[] = described.map((rule) => ({
    code: rule.verdict === 'block' ? 'rule_refusal' : 'rule_warning',
    severity: rule.verdict === 'block' ? 'critical' : 'warning',
    message: rule.message,
    fields: [],
    source: rule.source,
    rule: rule.code,
  }));

  if (request.entryGranted) {
    if (!first) return { entryGranted: true, refusalReason: null, warnings };
    // Only evidence the screen holds too (register, face) contradicts its claim; a rule the
    // screen cannot know (a watchlist) refuses without blaming the client.
    const evidenceBlock = evidenceOutcomes(evidence).find((outcome) => outcome.verdict === 'block');
    return {
      entryGranted: false,
      refusalReason: first.refusalReason,
      warnings: evidenceBlock
        ? [
            {
              code: 'grant_claim_contradicted',
              severity: 'warning',
              message: `The client asked to grant the entry; the server refused it: ${evidenceBlock.message}`,
              fields: ['entryGranted'],
            },
            ...warnings,
          ]
        : warnings,
    };
  }

  const stated = request.refusalReason ?? 'guard_refused';
  const refusalReason = first?.refusalReason ?? 'guard_refused';
  const isStatedShown =
    stated === 'guard_refused' || blocks.some((block) => block.refusalReason === stated);
  if (isStatedShown) return { entryGranted: false, refusalReason, warnings };
  return {
    entryGranted: false,
    refusalReason,
    warnings: [
      {
        code: 'refusal_reason_contradicted',
        severity: 'warning',
        message: first
          ? `The client gave the reason ${stated}; the server's evidence shows ${refusalReason}: ${first.message}`
          : `The client gave the reason ${stated}; the server's evidence shows no reason to refuse, so the refusal is the guard's.`,
        fields: ['refusalReason'],
      },
      ...warnings,
    ],
  };
}
