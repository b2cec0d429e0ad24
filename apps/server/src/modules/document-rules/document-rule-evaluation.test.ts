import { describe, expect, it } from 'vitest';

import type { EntryWarning } from '@boomgate/contracts/entry-checks';

import {
  type DocumentRuleFacts,
  GOODS_VEHICLE_MIN_GVM_KG,
  evaluateDocumentRules,
  prdpCategories,
} from './document-rule-evaluation';

const expiredPrdp: EntryWarning = {
  code: 'document_expired',
  severity: 'critical',
  message: 'Professional driving permit (PrDP) expired on 2020-01-31.',
  fields: ['driversLicence.prdpExpiry'],
};

const facts = (overrides: Partial<DocumentRuleFacts>): DocumentRuleFacts => ({
  crossChecks: [],
  gvmKg: 16_500,
  licenceCited: true,
  prdpExpiry: '2099-01-31',
  prdpCodes: 'G',
  driverIdNumber: null,
  induction: null,
  ...overrides,
});

const prdp = (input: Partial<DocumentRuleFacts>) =>
  evaluateDocumentRules(facts(input), { prdp_missing_or_expired: 'block' } as never).filter(
    (outcome) => outcome.code === 'prdp_missing_or_expired',
  );

describe('prdp_missing_or_expired (category G for a goods vehicle)', () => {
  it('passes a goods vehicle whose driver holds a current PrDP of category G', () => {
    expect(prdp({})).toEqual([]);
    expect(prdp({ prdpCodes: 'G,P' })).toEqual([]);
    expect(prdp({ prdpCodes: 'p, g' })).toEqual([]);
  });

  it('refuses a PrDP without category G: passengers or dangerous goods alone do not carry goods', () => {
    const [outcome] = prdp({ prdpCodes: 'P' });
    expect(outcome).toMatchObject({ verdict: 'block', refusalReason: 'document_rule' });
    expect(outcome?.message).toContain('category P, not G (goods)');
    expect(prdp({ prdpCodes: 'D,P' })[0]?.message).toContain('category D, P, not G');
  });

  it('refuses a missing PrDP and a category G without its expiry date', () => {
    expect(prdp({ prdpCodes: null, prdpExpiry: null })[0]?.message).toContain(
      'shows no professional driving permit (PrDP)',
    );
    expect(prdp({ prdpCodes: 'G', prdpExpiry: null })[0]?.message).toContain(
      'category G) shows no expiry date',
    );
  });

  it('refuses an expired PrDP from the cross-check', () => {
    const [outcome] = prdp({ crossChecks: [expiredPrdp], prdpExpiry: '2020-01-31' });
    expect(outcome?.message).toContain('expired on 2020-01-31');
  });

  it('asks nothing of a vehicle at or under 3 500 kg, or when no licence is cited', () => {
    expect(prdp({ gvmKg: GOODS_VEHICLE_MIN_GVM_KG, prdpCodes: null, prdpExpiry: null })).toEqual(
      [],
    );
    expect(
      prdp({ gvmKg: GOODS_VEHICLE_MIN_GVM_KG + 1, prdpCodes: null, prdpExpiry: null }),
    ).toHaveLength(1);
    expect(prdp({ licenceCited: false, prdpCodes: null, prdpExpiry: null })).toEqual([]);
  });

  it('warns instead of refusing when the rule is set to warn', () => {
    const outcomes = evaluateDocumentRules(facts({ prdpCodes: 'P' }), {
      prdp_missing_or_expired: 'warn',
    } as never);
    expect(outcomes).toMatchObject([{ verdict: 'warn', code: 'prdp_missing_or_expired' }]);
  });
});

describe('prdpCategories', () => {
  it('splits the categories as a licence or a guard writes them', () => {
    expect(prdpCategories('G,P')).toEqual(['G', 'P']);
    expect(prdpCategories(' g / d ')).toEqual(['G', 'D']);
    expect(prdpCategories(null)).toEqual([]);
  });
});
