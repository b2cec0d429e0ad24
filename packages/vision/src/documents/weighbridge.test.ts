import { describe, expect, it } from 'vitest';

import { aWeighbridgeTicketText } from '../testing/weighbridge-fixture';

import { extractWeighbridgeTicket, parseDateTime, parseMassKg } from './weighbridge';

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
      isPartial: false,
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
