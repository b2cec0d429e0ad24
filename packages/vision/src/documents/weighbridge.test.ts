import { describe, expect, it } from 'vitest';

import { aWeighbridgeTicketText } from '../testing/weighbridge-fixture';

import { checkMasses, extractWeighbridgeTicket, parseDateTime, parseMassKg } from './weighbridge';

describe('extractWeighbridgeTicket', () => {
  it('extracts every labelled field of a ticket', () => {
    const ticket = extractWeighbridgeTicket(aWeighbridgeTicketText());

    expect(ticket).toEqual({
      ticketNumber: 'WB-004821',
      site: 'Samancor Eastern Chrome Mines',
      vehicleReg: 'KP35XKGP',
      trailerRegs: ['BCD123MP', 'CA419547'],
      product: 'Chrome Ore LG6',
      customer: 'Richards Bay Bulk Terminal',
      transporter: 'Mokoena Haulage (Pty) Ltd',
      supplier: 'Tweefontein Mine',
      tareWeight: 15240,
      grossWeight: 49880,
      netWeight: 34640,
      tareDateTime: '2025-03-04T07:12',
      grossDateTime: '2025-03-04T08:40',
      sealNumbers: ['SL102938', 'SL102939'],
      tareOperator: 'J Mokoena',
      grossOperator: 'P Naidoo',
      massCheck: 'ok',
      operator: null,
      isPartial: false,
    });
  });

  it('reads a first/second-weight layout, taking the lighter weighing as the tare', () => {
    const text = [
      'WEIGHBRIDGE TICKET No. 00048213        ORIGINAL',
      'Date In: 04/03/2025 07:12    Date Out: 04/03/2025 08:40',
      'Horse Reg: ND 123-456',
      'Trailer 1: BCD123MP   Trailer 2: CA 419-547',
      'Commodity: Coal RB1',
      'Consignee: Eskom Majuba',
      'Haulier: Trans Africa Logistics',
      'Consignor: Khutala Colliery',
      '1st Weight: 16,120 kg',
      '2nd Weight: 52,340 kg',
      'Nett Mass: 36,220 kg',
      "Seal No's: 00123 / 00124 / 00125",
      'Operator: S Dlamini',
    ].join('\n');

    const ticket = extractWeighbridgeTicket(text);

    expect(ticket).toMatchObject({
      ticketNumber: '00048213',
      vehicleReg: 'ND123456',
      trailerRegs: ['BCD123MP', 'CA419547'],
      product: 'Coal RB1',
      customer: 'Eskom Majuba',
      transporter: 'Trans Africa Logistics',
      supplier: 'Khutala Colliery',
      tareWeight: 16120,
      grossWeight: 52340,
      netWeight: 36220,
      tareDateTime: '2025-03-04T07:12',
      grossDateTime: '2025-03-04T08:40',
      sealNumbers: ['00123', '00124', '00125'],
      operator: 'S Dlamini',
      massCheck: 'ok',
    });
  });

  it('takes the heavier first weighing as the gross for a loaded arrival', () => {
    const ticket = extractWeighbridgeTicket(
      'Ticket: R-77\n1st Weight: 48 000 kg\n2nd Weight: 14 500 kg',
    );

    expect(ticket).toMatchObject({
      tareWeight: 14500,
      grossWeight: 48000,
      netWeight: 33500,
      massCheck: 'derived',
    });
  });

  it('flags masses that do not add up', () => {
    const ticket = extractWeighbridgeTicket(aWeighbridgeTicketText({ net: '34 000 kg' }));

    expect(ticket.massCheck).toBe('mismatch');
  });

  it('marks a ticket without a ticket number as partial', () => {
    const ticket = extractWeighbridgeTicket(aWeighbridgeTicketText({ ticketNumber: null }));

    expect(ticket.isPartial).toBe(true);
    expect(ticket.grossWeight).toBe(49880);
  });
});

describe('checkMasses', () => {
  // The bridge's resolution is 20 kg: these numbers are the requirement, not the constant.
  it.each([
    [49_500, 15_000, 34_500, 'ok'],
    [49_500, 15_000, 34_520, 'ok'],
    [49_500, 15_000, 34_480, 'ok'],
    [49_500, 15_000, 34_521, 'mismatch'],
    [49_500, 15_000, 34_479, 'mismatch'],
  ] as const)('gross %i − tare %i vs net %i → %s', (grossWeight, tareWeight, netWeight, check) => {
    expect(checkMasses({ grossWeight, tareWeight, netWeight }).massCheck).toBe(check);
  });
});

describe('parseMassKg', () => {
  it.each([
    ['15 240 kg', 15240],
    ['15,240', 15240],
    ['34.64 t', 34640],
    ['880kg', 880],
  ])('reads %s as %d kg', (text, kg) => {
    expect(parseMassKg(text)).toBe(kg);
  });
});

describe('parseDateTime', () => {
  it('reads day-first dates with times', () => {
    expect(parseDateTime('04/03/2025 07:12')).toBe('2025-03-04T07:12');
  });
});
