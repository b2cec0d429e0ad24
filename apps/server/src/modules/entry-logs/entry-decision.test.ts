import { describe, expect, it } from 'vitest';

import {
  type EntryEvidence,
  type RuleOutcome,
  decideEntry,
  evidenceOutcomes,
  flowOf,
} from './entry-decision';

const approved = { approved: true, hasFaceReference: true };
const match = { kind: 'compared', verified: true, matchScore: 86.5 } as const;
const mismatch = { kind: 'compared', verified: false, matchScore: 41.5 } as const;
const autoGate = (over: Partial<EntryEvidence> = {}): EntryEvidence => ({
  flow: 'auto_gate',
  vehicle: approved,
  face: match,
  ...over,
});
const realGate = (over: Partial<EntryEvidence> = {}): EntryEvidence =>
  autoGate({ flow: 'real_gate', ...over });
const grant = { entryGranted: true };
const codes = (warnings: { code: string }[]) => warnings.map((warning) => warning.code);

const watchlist: RuleOutcome = {
  source: 'watchlist',
  verdict: 'block',
  refusalReason: 'watchlist',
  code: 'watchlist_block',
  message: 'Manual check required',
};
const expiringLicence: RuleOutcome = {
  source: 'document_rules',
  verdict: 'warn',
  refusalReason: 'document_rule',
  code: 'licence_expiring',
  message: 'The driving licence expires within 30 days.',
};

describe('flowOf', () => {
  it('takes contracted as the auto gate and every other category as the real gate', () => {
    expect(flowOf('contracted')).toBe('auto_gate');
    expect(flowOf('visitor')).toBe('real_gate');
  });
});

describe('decideEntry: the auto gate refuses what its screen refuses (spec §4)', () => {
  it('grants a registered, approved vehicle whose driver’s face matched', () => {
    expect(decideEntry(autoGate(), grant)).toEqual({
      entryGranted: true,
      refusalReason: null,
      warnings: [],
    });
  });

  it('grants a vehicle with no driver photo on file without a face', () => {
    const noReference = autoGate({
      vehicle: { approved: true, hasFaceReference: false },
      face: { kind: 'none' },
    });
    expect(decideEntry(noReference, grant)).toMatchObject({ entryGranted: true });
  });

  it.each([
    ['not_registered', autoGate({ vehicle: null, face: { kind: 'none' } })],
    ['registration_expired', autoGate({ vehicle: { approved: false, hasFaceReference: true } })],
    ['face_mismatch', autoGate({ face: mismatch })],
    ['face_error', autoGate({ face: { kind: 'error', message: 'No face found in the image.' } })],
    ['face_error', autoGate({ face: { kind: 'none' } })],
  ])('refuses a claimed grant as %s, with a warning', (reason, evidence) => {
    const decision = decideEntry(evidence, grant);
    expect(decision).toMatchObject({ entryGranted: false, refusalReason: reason });
    expect(codes(decision.warnings)).toEqual(['grant_claim_contradicted']);
    expect(decision.warnings[0]?.fields).toEqual(['entryGranted']);
  });

  it('checks the register before the face', () => {
    expect(
      decideEntry(
        autoGate({ vehicle: { approved: false, hasFaceReference: true }, face: mismatch }),
        {
          entryGranted: false,
          refusalReason: 'registration_expired',
        },
      ),
    ).toEqual({ entryGranted: false, refusalReason: 'registration_expired', warnings: [] });
  });
});

describe('decideEntry: the real gate logs unregistered vehicles and takes the face on capture', () => {
  it.each([
    ['unregistered', realGate({ vehicle: null, face: { kind: 'none' } })],
    ['expired', realGate({ vehicle: { approved: false, hasFaceReference: false } })],
    ['face mismatch', realGate({ face: mismatch })],
    ['face error', realGate({ face: { kind: 'error', message: 'Two faces' } })],
  ])('grants an %s vehicle when the guard grants it', (_, evidence) => {
    expect(decideEntry(evidence, grant)).toEqual({
      entryGranted: true,
      refusalReason: null,
      warnings: [],
    });
  });
});

describe('decideEntry: the guard’s refusal', () => {
  it('is always honoured, as guard_refused when no evidence refuses', () => {
    expect(decideEntry(autoGate(), { entryGranted: false })).toEqual({
      entryGranted: false,
      refusalReason: 'guard_refused',
      warnings: [],
    });
    expect(decideEntry(realGate({ vehicle: null }), { entryGranted: false })).toMatchObject({
      refusalReason: 'guard_refused',
      warnings: [],
    });
  });

  it('takes the evidence’s reason over a plain guard refusal', () => {
    expect(
      decideEntry(autoGate({ vehicle: null }), {
        entryGranted: false,
        refusalReason: 'guard_refused',
      }),
    ).toEqual({ entryGranted: false, refusalReason: 'not_registered', warnings: [] });
  });

  it('keeps a stated reason the evidence shows, without a warning', () => {
    expect(
      decideEntry(autoGate({ face: mismatch }), {
        entryGranted: false,
        refusalReason: 'face_mismatch',
      }),
    ).toEqual({ entryGranted: false, refusalReason: 'face_mismatch', warnings: [] });
  });

  it('records a stated reason the evidence contradicts and stores the evidence’s', () => {
    const registered = decideEntry(autoGate(), {
      entryGranted: false,
      refusalReason: 'not_registered',
    });
    expect(registered).toMatchObject({ entryGranted: false, refusalReason: 'guard_refused' });
    expect(registered.warnings).toEqual([
      expect.objectContaining({
        code: 'refusal_reason_contradicted',
        fields: ['refusalReason'],
        message: expect.stringContaining('no reason to refuse'),
      }),
    ]);

    const mismatched = decideEntry(autoGate({ face: mismatch }), {
      entryGranted: false,
      refusalReason: 'face_error',
    });
    expect(mismatched).toMatchObject({ refusalReason: 'face_mismatch' });
    expect(mismatched.warnings[0]?.message).toContain('shows face_mismatch');

    // The real gate refuses nothing itself: a stated register reason is the guard's refusal.
    expect(
      decideEntry(realGate({ vehicle: null }), {
        entryGranted: false,
        refusalReason: 'not_registered',
      }),
    ).toMatchObject({
      refusalReason: 'guard_refused',
      warnings: [{ code: 'refusal_reason_contradicted' }],
    });
  });
});

describe('decideEntry: rule outcomes from other sources', () => {
  it('refuses on a block from any source, on either flow, and lists every outcome', () => {
    for (const evidence of [autoGate(), realGate()]) {
      const decision = decideEntry(evidence, grant, [expiringLicence, watchlist]);
      expect(decision).toMatchObject({ entryGranted: false, refusalReason: 'watchlist' });
      // A rule the screen cannot know refuses without a grant_claim_contradicted warning.
      expect(decision.warnings).toEqual([
        {
          code: 'rule_warning',
          severity: 'warning',
          message: 'The driving licence expires within 30 days.',
          fields: [],
          source: 'document_rules',
          rule: 'licence_expiring',
        },
        {
          code: 'rule_refusal',
          severity: 'critical',
          message: 'Manual check required',
          fields: [],
          source: 'watchlist',
          rule: 'watchlist_block',
        },
      ]);
    }
  });

  it('blames the client only for evidence it holds too (the register, the face)', () => {
    const unregistered = autoGate({ vehicle: null, face: { kind: 'none' } });
    expect(decideEntry(unregistered, grant, [watchlist]).warnings[0]).toMatchObject({
      code: 'grant_claim_contradicted',
      message: expect.stringContaining('not pre-registered'),
    });
  });

  it('leaves out the warnings of sources that write their own (a covert hit says nothing)', () => {
    const decision = decideEntry(realGate(), grant, [expiringLicence, watchlist], {
      typedSources: new Set(['watchlist']),
    });
    expect(decision.refusalReason).toBe('watchlist');
    expect(decision.warnings.map((warning) => warning.rule)).toEqual(['licence_expiring']);
  });

  it('grants with a warning when every rule only warns', () => {
    expect(decideEntry(autoGate(), grant, [expiringLicence])).toMatchObject({
      entryGranted: true,
      refusalReason: null,
      warnings: [{ code: 'rule_warning', rule: 'licence_expiring' }],
    });
  });

  it('gives a rule’s reason before the register’s, and takes either as the stated reason', () => {
    const unregistered = autoGate({ vehicle: null, face: { kind: 'none' } });
    expect(decideEntry(unregistered, grant, [watchlist])).toMatchObject({
      refusalReason: 'watchlist',
    });
    const stated = decideEntry(
      unregistered,
      { entryGranted: false, refusalReason: 'not_registered' },
      [watchlist],
    );
    expect(stated.refusalReason).toBe('watchlist');
    expect(codes(stated.warnings)).toEqual(['rule_refusal']);
  });
});

describe('evidenceOutcomes', () => {
  it('names its source and reason', () => {
    expect(evidenceOutcomes(autoGate({ face: mismatch }))).toEqual([
      {
        source: 'face',
        verdict: 'block',
        refusalReason: 'face_mismatch',
        code: 'face_mismatch',
        message: 'The face did not match (match 41.5%).',
      },
    ]);
    expect(evidenceOutcomes(realGate({ vehicle: null }))).toEqual([]);
  });
});
