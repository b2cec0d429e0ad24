import { describe, expect, it } from 'vitest';

import { ticketBody, ticketFromFields, weightsAgree } from './weighbridge-tickets';

describe('weightsAgree (gross − tare = net, within 20 kg)', () => {
  it.each([
    [49_500, 15_000, 34_500, true],
    [49_500, 15_000, 34_520, true],
    [49_500, 15_000, 34_521, false],
    [49_500, 15_000, 30_000, false],
  ])('gross %i − tare %i vs net %i → %s', (grossWeight, tareWeight, netWeight, expected) => {
    expect(weightsAgree({ grossWeight, tareWeight, netWeight })).toBe(expected);
  });

  it('is unknown when a weight is missing', () => {
    expect(weightsAgree({ grossWeight: 1, tareWeight: null, netWeight: 1 })).toBeNull();
  });
});

describe('ticketFromFields', () => {
  it('reads the engine fields, lists joined and weights as numbers', () => {
    const reading = ticketFromFields(
      {
        ticketNumber: 'WB-1',
        vehicleReg: 'ND123456',
        trailerRegs: ['ND1', 'ND2'],
        sealNumbers: [],
        grossWeight: 49_500,
        tareWeight: '15 000',
        netWeight: 34_500,
        massCheck: 'ok',
      },
      'raw text',
    );
    expect(reading).toMatchObject({
      ticketNumber: 'WB-1',
      vehicleReg: 'ND123456',
      trailerRegs: 'ND1, ND2',
      sealNumbers: null,
      grossWeight: 49_500,
      tareWeight: 15_000,
      netWeight: 34_500,
      rawOcrText: 'raw text',
    });
    expect(ticketBody(reading, 'data:image/jpeg;base64,AA')).toMatchObject({
      ticketNumber: 'WB-1',
      ticketImage: 'data:image/jpeg;base64,AA',
    });
  });
});
