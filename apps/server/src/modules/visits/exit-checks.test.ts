import { describe, expect, it } from 'vitest';

import { exitMismatches, splitSeals } from './exit-checks';

const facts = (ticketNumber: string | null, seals: string[], vehicleReg: string | null = null) => ({
  ticketNumber,
  sealNumbers: seals,
  vehicleReg,
});

describe('exit checks', () => {
  it('splits seal lists however they were typed', () => {
    expect(splitSeals('S1, S2;S3\n')).toEqual(['S1', 'S2', 'S3']);
    expect(splitSeals([' A ', ''])).toEqual(['A']);
    expect(splitSeals(null)).toEqual([]);
  });

  it('agrees when seals and ticket match, ignoring case, order and separators', () => {
    expect(
      exitMismatches(facts('WB-100', ['s1', 'S2']), facts('wb100', ['S2', 'S-1']), 'CA123'),
    ).toEqual([]);
  });

  it('flags changed seals, another ticket and a ticket for another vehicle', () => {
    const found = exitMismatches(
      facts('WB100', ['S1', 'S2']),
      facts('WB200', ['S1', 'S9'], 'ND 999'),
      'CA123',
    );
    expect(found.map((mismatch) => mismatch.code)).toEqual([
      'seal_mismatch',
      'ticket_number_mismatch',
      'ticket_vehicle_mismatch',
    ]);
    expect(found[0]).toMatchObject({ entry: 'S1, S2', exit: 'S1, S9' });
  });

  it('compares only what both sides state', () => {
    expect(exitMismatches(null, facts('WB1', ['S1']), null)).toEqual([]);
    expect(exitMismatches(facts(null, []), facts('WB1', ['S1']), 'CA1')).toEqual([]);
    expect(exitMismatches(facts('WB1', ['S1']), facts(null, []), 'CA1')).toEqual([]);
  });
});
