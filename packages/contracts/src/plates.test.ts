import { describe, expect, it } from 'vitest';

import { formatPlate, normalisePlate } from './plates';

describe('normalisePlate', () => {
  it.each([
    ['kp 35 xk gp', 'KP35XKGP'],
    ['CA 123-456', 'CA123456'],
    ['  nd.123 456 ', 'ND123456'],
    ['B\u00c9C 1', 'BC1'],
    ['', ''],
  ])('%j → %j', (text, expected) => {
    expect(normalisePlate(text)).toBe(expected);
  });
});

describe('formatPlate (spec §5 display form)', () => {
  it.each([
    ['KP35XKGP', 'KP 35 XK GP'],
    ['kp 35 xk gp', 'KP 35 XK GP'],
    ['CA123456', 'CA 123 456'],
    ['CA 123-456', 'CA 123 456'],
    ['CY12345', 'CY 12345'],
    ['BCD123MP', 'BCD 123 MP'],
    ['ND123456', 'ND 123 456'],
    ['ABC123L', 'ABC 123 L'],
    ['B123ABC', 'B 123 ABC'],
    ['AB12CD', 'AB 12 CD'],
    ['CA123', 'CA123'],
    ['XY1', 'XY1'],
  ])('%j → %j', (plate, expected) => {
    expect(formatPlate(plate)).toBe(expected);
  });

  it('is stable: formatting a display form again changes nothing', () => {
    for (const plate of ['KP35XKGP', 'CA123456', 'BCD123MP', 'CY12345'])
      expect(formatPlate(formatPlate(plate))).toBe(formatPlate(plate));
  });

  it('never uses a hyphen', () => {
    expect(formatPlate('CA123456')).not.toContain('-');
  });
});
