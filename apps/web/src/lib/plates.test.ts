import { describe, expect, it } from 'vitest';

import { formatPlate, normalisePlate, plateFromText } from './plates';

describe('normalisePlate (spec §5: upper case, letters and digits only)', () => {
  it.each([
    ['kp 35-xk gp', 'KP35XKGP'],
    [' CA 123-456 ', 'CA123456'],
    ['nd.123.456', 'ND123456'],
  ])('%s → %s', (input, expected) => {
    expect(normalisePlate(input)).toBe(expected);
  });
});

describe('formatPlate (spec §5 display form)', () => {
  it.each([
    ['KP35XKGP', 'KP 35 XK GP'],
    ['kp 35 xk gp', 'KP 35 XK GP'],
    ['CA123456', 'CA 123 456'],
    ['ABC123GP', 'ABC 123 GP'],
    ['CAA1234', 'CAA 1234'],
    ['BCD123MP', 'BCD 123 MP'],
  ])('%s → %s', (input, expected) => {
    expect(formatPlate(input)).toBe(expected);
  });

  it('leaves a plate of fewer than 6 letters and digits as stored', () => {
    expect(formatPlate('ab 12c')).toBe('AB12C');
    expect(formatPlate('GP1')).toBe('GP1');
  });
});

describe('plateFromText (spec §5 pattern)', () => {
  it('takes letters, digits and two letter groups', () => {
    expect(plateFromText('REPUBLIC KP 35 XK GP GAUTENG')).toBe('KP35XKGP');
  });

  it('takes a run of 5 to 10 letters and digits', () => {
    expect(plateFromText('plate: CA123456')).toBe('CA123456');
  });

  it('joins a plate split by spaces and dashes', () => {
    expect(plateFromText('CA 123-456')).toBe('CA123456');
  });

  it('finds nothing in text without a plate', () => {
    expect(plateFromText('no plate')).toBeNull();
    expect(plateFromText('')).toBeNull();
  });
});
