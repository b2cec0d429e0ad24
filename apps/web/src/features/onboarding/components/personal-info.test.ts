import { describe, expect, it } from 'vitest';

import { PersonalInfoSchema } from './personal-info';

describe('PersonalInfoSchema', () => {
  it('trims the values it accepts', () => {
    expect(
      PersonalInfoSchema.parse({
        name: ' Sipho ',
        surname: 'Dlamini ',
        idNumber: ' 8001015009087',
        phone: '082 123 4567',
      }),
    ).toEqual({
      name: 'Sipho',
      surname: 'Dlamini',
      idNumber: '8001015009087',
      phone: '082 123 4567',
    });
  });

  it('reports one message per field', () => {
    const result = PersonalInfoSchema.safeParse({
      name: '',
      surname: ' ',
      idNumber: '8001015009086',
      phone: '1',
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => [issue.path[0], issue.message])).toEqual([
      ['name', 'Enter your first name.'],
      ['surname', 'Enter your surname.'],
      ['idNumber', 'This is not a valid South African ID number: please check the digits.'],
      ['phone', 'Enter a South African number, e.g. 082 123 4567 or +27 82 123 4567.'],
    ]);
  });
});
