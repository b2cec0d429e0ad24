import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { parseHikvisionAlert } from './hikvision';

const fixture = (name: string) =>
  readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

describe('parseHikvisionAlert', () => {
  it('reads the plate, time and camera channel of an ANPR event', () => {
    expect(parseHikvisionAlert(fixture('hikvision-anpr.xml'))).toEqual({
      eventType: 'ANPR',
      eventState: 'active',
      plateNumber: 'TST123GP',
      dateTime: new Date('2026-03-04T05:15:42Z'),
      channelName: 'Main Gate In',
      confidenceLevel: 96,
      vehicleType: 'truck',
    });
  });

  it('reads a heartbeat as an event without a plate', () => {
    expect(parseHikvisionAlert(fixture('hikvision-heartbeat.xml'))).toMatchObject({
      eventType: 'videoloss',
      plateNumber: null,
    });
  });

  it('keeps an all-digit plate as text', () => {
    const xml =
      '<EventNotificationAlert><eventType>ANPR</eventType><ANPR><licensePlate>0123456</licensePlate></ANPR></EventNotificationAlert>';

    expect(parseHikvisionAlert(xml).plateNumber).toBe('0123456');
  });

  it('refuses XML that is not an event', () => {
    expect(() =>
      parseHikvisionAlert('<ResponseStatus><statusCode>1</statusCode></ResponseStatus>'),
    ).toThrow(/EventNotificationAlert/);
  });

  it('does not expand entities', () => {
    const xml =
      '<!DOCTYPE x [<!ENTITY a "AAAAAAAAAA">]><EventNotificationAlert><eventType>ANPR</eventType><ANPR><licensePlate>&a;</licensePlate></ANPR></EventNotificationAlert>';

    expect(parseHikvisionAlert(xml).plateNumber).toBe('&a;');
  });
});
