import { describe, expect, it } from 'vitest';

import { englishHalf, parseDisc } from './disc';

const SAMPLE =
  '%MVL1CC08%0168%1001A6GK%1%1001055W4R60%CA419547%HXV436S%Sedan (closed top) / Sedan (toe-kap)%MERCEDES-BENZ%W203%Grey / Grys%WDC2030422R249727%27194030818686%2015-02-28%';

describe('parseDisc', () => {
  it('reads the positional fields of a licence disc payload', () => {
    const disc = parseDisc(SAMPLE);

    expect(disc).toMatchObject({
      formCode: 'MVL1CC08',
      licenceNumber: 'CA419547',
      vehicleRegisterNumber: 'HXV436S',
      make: 'MERCEDES-BENZ',
      model: 'W203',
      vin: 'WDC2030422R249727',
      engineNumber: '27194030818686',
      expiryDate: '2015-02-28',
      controlNumber: '1001055W4R60',
      isLengthValid: true,
    });
  });

  it('flags a payload whose declared length does not match', () => {
    const disc = parseDisc(SAMPLE.replace('%0168%', '%0164%'));

    expect(disc?.isLengthValid).toBe(false);
  });

  it('returns null for text that is not a disc', () => {
    expect(parseDisc('DOE|JANE|F')).toBeNull();
  });
});

describe('englishHalf', () => {
  it('keeps the English half of a bilingual value', () => {
    expect(englishHalf('Pick-up / Bakkie')).toBe('Pick-up');
  });
});
