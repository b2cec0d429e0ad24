import { z } from 'zod';

/**
 * Why an attempt at the gate did not end in an entry (issue 14). The screens send it with
 * `entryGranted: false`; later issues (rules, watchlists) add reasons the server itself gives.
 */
export const REFUSAL_REASONS = [
  'not_registered',
  'registration_expired',
  'face_mismatch',
  'face_error',
  'guard_refused',
  /** Issue 21: a `block` entry of the tenant's watchlist matched the plate, ID number or company. */
  'watchlist',
  /** Issue 21: a document rule set to `block` failed (the rule's code is in the entry's warnings). */
  'document_rule',
  /** Issue 21: a trailer presented with the rig is not on it, or its licence disc has expired. */
  'rig_mismatch',
  /**
   * Issue 18: the guard granted the entry offline, and the tenant's `offlineDecisions` setting is
   * `record_only` (an offline decision may only record).
   */
  'offline_grant_not_allowed',
] as const;
export const RefusalReasonSchema = z.enum(REFUSAL_REASONS);
/**
 * The reasons a screen may send (issue 14). The rules' reasons (watchlist, document_rule,
 * rig_mismatch) are the server's alone: a client cannot claim them.
 */
export const ClientRefusalReasonSchema = z.enum([
  'not_registered',
  'registration_expired',
  'face_mismatch',
  'face_error',
  'guard_refused',
]);
export type ClientRefusalReason = z.infer<typeof ClientRefusalReasonSchema>;
export type RefusalReason = z.infer<typeof RefusalReasonSchema>;

/**
 * What the server found when it saved an entry: its own cross-checks (plate, names, expiry,
 * licence code), claims of the client its evidence does not back, and the guard's own notes.
 */
export const ENTRY_WARNING_CODES = [
  /** The client said the face was verified (or sent a score) and the server holds no comparison. */
  'face_claim_unbacked',
  /** The client's face verdict or score differs from the server's comparison. */
  'face_claim_contradicted',
  /** The client said the vehicle was approved; the register does not. */
  'vehicle_claim_contradicted',
  /** The server tried to compare the face sent with the entry and the engine could not. */
  'face_comparison_failed',
  /** Plate, licence disc registration and weighbridge ticket vehicle disagree. */
  'plate_mismatch',
  /** Names on the licence, ID, passport and the registered driver disagree. */
  'name_mismatch',
  /** A cited document is past its expiry date. */
  'document_expired',
  /** The licence's vehicle codes do not cover the vehicle's mass (GVM on the disc). */
  'licence_code_insufficient',
  /** A driver detail sent by the client differs from the cited documents, which win (spec §5). */
  'driver_detail_replaced',
  /** A note the guard's screen sent with the entry. */
  'guard_note',
  /** The client asked to grant the entry; the server's evidence refused it (entry-decision.ts). */
  'grant_claim_contradicted',
  /** The client's refusal reason is not what the server's evidence shows. */
  'refusal_reason_contradicted',
  /** A rule (watchlist, document rules…) refused the entry: every refusing rule is listed. */
  'rule_refusal',
  /** A rule let the entry through with a warning. */
  'rule_warning',
  /**
   * Issue 21: a watchlist entry matched. Critical for a block, warning for an alert; a covert
   * block reads only "Manual check required" and a covert alert is not shown at all.
   */
  'watchlist_hit',
  /**
   * Issue 21: a document rule failed; `fields` holds `rules.<ruleCode>`. Critical when the rule
   * blocks (the entry is refused, `refusalReason: 'document_rule'`), a warning when it warns.
   */
  'document_rule',
  /**
   * Issue 21: a rig check — a trailer not on the approved vehicle's rig or with an expired disc
   * (critical, the entry is refused), or a weighbridge ticket naming a trailer the rig does not
   * have (a warning).
   */
  'rig_check',
  /**
   * Issue 15: the plate read was uncertain and nobody confirmed or corrected it, or the entry's
   * plate differs from the read without a correction sent (the typed plate's provenance is lost).
   */
  'plate_unconfirmed',
  /**
   * Issue 15: the client sent an `extractedPlate` but cited no plate capture whose read found a
   * plate; the entry's `extractedPlate` is null and the claim is kept only in this note.
   */
  'plate_read_unbacked',
] as const;
export const EntryWarningCodeSchema = z.enum(ENTRY_WARNING_CODES);
export type EntryWarningCode = z.infer<typeof EntryWarningCodeSchema>;

/** critical: shown in red (an expired document); warning: a mismatch to look at; info: a note. */
export const EntryWarningSeveritySchema = z.enum(['info', 'warning', 'critical']);
export type EntryWarningSeverity = z.infer<typeof EntryWarningSeveritySchema>;

export const EntryWarningSchema = z.object({
  code: EntryWarningCodeSchema,
  severity: EntryWarningSeveritySchema,
  message: z.string(),
  /** The fields the warning is about, e.g. `plateNumber`, `licenceDisc.vehicleRegisterNo`. */
  fields: z.array(z.string()),
  /** rule_refusal / rule_warning: the rule's source (e.g. `watchlist`) and its own code. */
  source: z.string().optional(),
  rule: z.string().optional(),
});
export type EntryWarning = z.infer<typeof EntryWarningSchema>;

/**
 * Issue 21: a rule's outcome as the gate's decision takes it (the server's entry-decision): a
 * `block` refuses the entry with `refusalReason`, a `warn` grants it with a warning. Every rule
 * source (`watchlist`, `document_rules`) answers in this shape.
 */
export type RuleOutcome = {
  source: string;
  verdict: 'block' | 'warn';
  refusalReason: string;
  code: string;
  message: string;
};
