import { describe, expect, it } from 'vitest';

import { checkRig } from './rig-check';

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
