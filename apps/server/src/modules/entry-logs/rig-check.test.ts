import { describe, expect, it } from 'vitest';

import { checkRig, checkTrailerDiscs } from './rig-check';

const rig = [
  { plateNumber: 'TR1GP', discNumber: null, discExpiry: '2026-11-26' },
  { plateNumber: 'TR2GP', discNumber: null, discExpiry: null },
];

describe('checkRig', () => {
  it('passes trailers on the rig with a disc valid through its expiry day', () => {
    expect(
      checkRig({
        rig,
        trailerPlates: ['tr1 gp', 'TR2GP'],
        ticketTrailerRegs: 'TR1GP; TR2 GP',
        today: '2026-11-26',
      }),
    ).toEqual([]);
  });

  it('blocks an unknown trailer and an expired disc; warns for an unknown ticket trailer', () => {
    const outcomes = checkRig({
      rig,
      trailerPlates: ['XX1GP', 'TR1GP'],
      ticketTrailerRegs: 'TR1GP, ZZ9GP',
      today: '2026-11-27',
    });
    expect(outcomes.map((outcome) => [outcome.verdict, outcome.code])).toEqual([
      ['block', 'trailer_not_on_rig'],
      ['block', 'trailer_disc_expired'],
      ['warn', 'ticket_trailer_unknown'],
    ]);
  });

  it('has nothing to check without a registered vehicle', () => {
    expect(
      checkRig({
        rig: null,
        trailerPlates: ['XX1GP'],
        ticketTrailerRegs: null,
        today: '2026-11-26',
      }),
    ).toEqual([]);
  });
});

describe('checkTrailerDiscs (trailerLicenceDiscIds)', () => {
  const today = '2026-11-26';
  const codes = (discs: { plate: string | null; dateOfExpiry: string | null }[]) =>
    checkTrailerDiscs(discs, ['TR1GP', 'TR2GP'], today).map((outcome) => outcome.code);

  it('passes a disc of a presented trailer, valid through its expiry day', () => {
    expect(codes([{ plate: 'tr1 gp', dateOfExpiry: '2026-11-26' }])).toEqual([]);
    expect(codes([{ plate: 'TR2GP', dateOfExpiry: '26/11/2026' }])).toEqual([]);
  });

  it('blocks a disc expired the day before, one for a trailer not presented, or an unreadable one', () => {
    expect(codes([{ plate: 'TR1GP', dateOfExpiry: '2026-11-25' }])).toEqual([
      'trailer_disc_expired',
    ]);
    expect(codes([{ plate: 'OTHER1GP', dateOfExpiry: '2099-01-01' }])).toEqual([
      'trailer_disc_not_presented',
    ]);
    expect(codes([{ plate: null, dateOfExpiry: null }])).toEqual([
      'trailer_disc_unreadable',
      'trailer_disc_unreadable',
    ]);
    const [outcome] = checkTrailerDiscs(
      [{ plate: 'TR1GP', dateOfExpiry: '2020-01-31' }],
      ['TR1GP'],
      today,
    );
    expect(outcome).toMatchObject({ verdict: 'block', refusalReason: 'rig_mismatch' });
    expect(outcome?.message).toBe('Trailer disc TR1GP expired on 2020-01-31.');
  });

  it('checks the discs even when the truck-tractor has no rig on the register', () => {
    expect(
      checkRig({
        rig: null,
        trailerPlates: ['TR1GP'],
        trailerDiscs: [{ plate: 'TR1GP', dateOfExpiry: '2020-01-31' }],
        ticketTrailerRegs: null,
        today,
      }).map((outcome) => outcome.code),
    ).toEqual(['trailer_disc_expired']);
  });
});
