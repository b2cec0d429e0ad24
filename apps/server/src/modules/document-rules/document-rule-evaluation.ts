import type { EntryWarning, RuleOutcome } from '@boomgate/contracts/entry-checks';
import {
  DOCUMENT_RULE_CODES,
  DOCUMENT_RULES,
  type DocumentRuleCode,
  type DocumentRules,
} from '@boomgate/contracts/document-rules';
import { SA_ID_NUMBER_MESSAGES, checkSaIdNumber } from '@boomgate/contracts/sa-id-number';

export const DOCUMENT_RULES_SOURCE = 'document_rules';

/** A goods vehicle needs a PrDP (category G): GVM over 3 500 kg. */
export const GOODS_VEHICLE_MIN_GVM_KG = 3_500;

/**
 * What the rules read, gathered by the gate's decision from the evidence it holds: the entry's
 * cross-checks (entry-rules.ts, typed warnings with the fields they are about) and a few facts
 * the cross-checks do not state.
 */
export type DocumentRuleFacts = {
  crossChecks: readonly EntryWarning[];
  /** The disc's GVM in kg, null when no disc is cited or it cannot be read. */
  gvmKg: number | null;
  /** Whether a driving licence is cited, and whether it shows a PrDP expiry. */
  licenceCited: boolean;
  prdpExpiry: string | null;
  /** The licence's PrDP categories as read ("G", "G,P"); null when it shows none. */
  prdpCodes?: string | null;
  /** The driver's ID number as stored on the entry. */
  driverIdNumber: string | null;
  /** The registered driver's induction, when the register knows the driver; null otherwise. */
  induction: 'valid' | 'expired' | 'missing' | null;
};

const has = (warning: EntryWarning, code: EntryWarning['code'], field: string) =>
  warning.code === code && warning.fields.includes(field);

/** PrDP categories as a list: "G, P" → ['G', 'P']. */
export const prdpCategories = (codes: string | null | undefined): string[] =>
  (codes ?? '')
    .toUpperCase()
    .split(/[\s,;/]+/)
    .filter(Boolean);

/**
 * A goods vehicle's driver needs a PrDP of category G (goods; P or D alone do not carry goods):
 * missing when the licence shows none, shows categories without G, or shows G without the expiry
 * the barcode carries (unconfirmed is not valid); expired when the expiry has passed.
 */
function prdpFailures(
  facts: DocumentRuleFacts,
  messages: (test: (warning: EntryWarning) => boolean) => string[],
): string[] {
  if (!facts.licenceCited) return [];
  const categories = prdpCategories(facts.prdpCodes);
  const gvm = `The vehicle's GVM is ${facts.gvmKg} kg`;
  if (categories.length > 0 && !categories.includes('G'))
    return [
      `${gvm} and the driving licence's PrDP is category ${categories.join(', ')}, not G (goods).`,
    ];
  if (!facts.prdpExpiry)
    return categories.length > 0
      ? [`${gvm} and the driving licence's PrDP (category G) shows no expiry date.`]
      : [`${gvm} and the driving licence shows no professional driving permit (PrDP).`];
  return messages((w) => has(w, 'document_expired', 'driversLicence.prdpExpiry'));
}

/** Each rule's failures (messages) for the facts; an empty list passes. */
function failures(facts: DocumentRuleFacts): Record<DocumentRuleCode, string[]> {
  const messages = (test: (warning: EntryWarning) => boolean) =>
    facts.crossChecks.filter(test).map((warning) => warning.message);
  const goodsVehicle = facts.gvmKg !== null && facts.gvmKg > GOODS_VEHICLE_MIN_GVM_KG;
  const idProblem =
    facts.driverIdNumber && /^\d{13}$/.test(facts.driverIdNumber)
      ? checkSaIdNumber(facts.driverIdNumber)
      : null;
  return {
    licence_expired: messages((w) => has(w, 'document_expired', 'driversLicence.validTo')),
    prdp_missing_or_expired: goodsVehicle ? prdpFailures(facts, messages) : [],
    licence_code_invalid: messages((w) => w.code === 'licence_code_insufficient'),
    disc_expired: messages((w) => has(w, 'document_expired', 'licenceDisc.dateOfExpiry')),
    disc_plate_mismatch: messages((w) => has(w, 'plate_mismatch', 'licenceDisc.licenceNumber')),
    induction_missing_or_expired:
      facts.induction === 'missing'
        ? ['The driver has no safety induction on record.']
        : facts.induction === 'expired'
          ? ["The driver's safety induction has expired."]
          : [],
    passport_expired: messages((w) => has(w, 'document_expired', 'passport.expiryDate')),
    id_number_invalid: idProblem
      ? [`ID number ${facts.driverIdNumber}: ${SA_ID_NUMBER_MESSAGES[idProblem]}`]
      : [],
    driver_name_mismatch: messages((w) => has(w, 'name_mismatch', 'approvedVehicle.driverName')),
  };
}

/**
 * Pure: the outcome of every rule that is not `off` and fails, in the rules' documented order.
 * A `block` rule refuses (`refusalReason: 'document_rule'`, the rule's code in `code`).
 */
export function evaluateDocumentRules(
  facts: DocumentRuleFacts,
  rules: DocumentRules['rules'],
): RuleOutcome[] {
  const failed = failures(facts);
  return DOCUMENT_RULE_CODES.flatMap((code) => {
    const setting = rules[code];
    const first = failed[code][0];
    if (setting === 'off' || first === undefined) return [];
    return [
      {
        source: DOCUMENT_RULES_SOURCE,
        verdict: setting === 'block' ? ('block' as const) : ('warn' as const),
        refusalReason: 'document_rule',
        code,
        message: `${DOCUMENT_RULES[code]}: ${failed[code].join(' ')}`,
      },
    ];
  });
}

/** The entry's warnings for the rule outcomes: the verdict stored on the entry and shown. */
export function documentRuleWarnings(outcomes: readonly RuleOutcome[]): EntryWarning[] {
  return outcomes
    .filter((outcome) => outcome.source === DOCUMENT_RULES_SOURCE)
    .map((outcome) => ({
      code: 'document_rule' as const,
      severity: outcome.verdict === 'block' ? ('critical' as const) : ('warning' as const),
      message: outcome.message,
      fields: [`rules.${outcome.code}`],
    }));
}

/** Kilograms from a printed mass ("16 500", "16500 kg"); null when unreadable. */
export function gvmKilograms(text: string | null): number | null {
  const digits = text?.replace(/[\s,]/g, '').match(/^\d{3,6}/)?.[0];
  return digits ? Number(digits) : null;
}
