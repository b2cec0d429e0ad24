import { z } from 'zod';

/**
 * Issue 21: document rules, each set per organization to `block` (refuse the entry,
 * `refusalReason: 'document_rule'`), `warn` (grant with a warning) or `off`. Evaluated by the
 * server when an entry is saved, from the documents the entry cites and the register.
 */
export const DOCUMENT_RULES = {
  /** The driving licence is past its expiry date (valid through the printed day). */
  licence_expired: 'Driving licence expired',
  /**
   * A goods vehicle (GVM over 3 500 kg on the licence disc) and the licence shows no PrDP expiry,
   * or the PrDP has expired. The SA licence barcode carries the PrDP codes and expiry.
   */
  prdp_missing_or_expired: 'PrDP missing or expired for a goods vehicle',
  /** The licence's vehicle codes do not cover the vehicle's GVM (B ≤ 3 500 kg, C1 ≤ 16 000 kg). */
  licence_code_invalid: 'Licence code not valid for the vehicle class',
  /** The licence disc is past its expiry date. */
  disc_expired: 'Licence disc expired',
  /** The licence disc's registration differs from the plate. */
  disc_plate_mismatch: 'Licence disc registration differs from the plate',
  /** The registered driver's safety induction is missing or expired (when the register knows it). */
  induction_missing_or_expired: 'Induction missing or expired',
  /** The passport is past its expiry date. */
  passport_expired: 'Passport expired',
  /** A 13-digit South African ID number fails its checks (date, citizenship digit, checksum). */
  id_number_invalid: 'ID number fails its checksum',
  /** The name on the documents differs from the approved vehicle's registered driver. */
  driver_name_mismatch: 'Driver on the documents differs from the registered driver',
} as const;

export type DocumentRuleCode = keyof typeof DOCUMENT_RULES;
export const DOCUMENT_RULE_CODES = Object.keys(DOCUMENT_RULES) as DocumentRuleCode[];

export const RuleSettingSchema = z.enum(['block', 'warn', 'off']);
export type RuleSetting = z.infer<typeof RuleSettingSchema>;

/**
 * Until an organization decides, every rule is off: the entry's cross-checks still warn as they
 * did before the rules (issue 14); a rule set to warn adds its verdict, block refuses.
 */
export const DEFAULT_RULE_SETTING: RuleSetting = 'off';

const ruleShape = Object.fromEntries(DOCUMENT_RULE_CODES.map((code) => [code, RuleSettingSchema]));

/** GET /api/settings/rules: every rule code with its setting. */
export const DocumentRulesSchema = z.object({
  rules: z.object(ruleShape as Record<DocumentRuleCode, typeof RuleSettingSchema>),
});
export type DocumentRules = z.infer<typeof DocumentRulesSchema>;

/** PATCH /api/settings/rules: any subset of the rules; an unknown rule code is a 400. */
export const UpdateDocumentRulesSchema = z
  .object({
    rules: z
      .object(ruleShape as Record<DocumentRuleCode, typeof RuleSettingSchema>)
      .partial()
      .strict()
      .refine((rules) => Object.keys(rules).length > 0, { message: 'Change at least one rule' }),
  })
  .strict();
export type UpdateDocumentRules = z.infer<typeof UpdateDocumentRulesSchema>;
