import { describe, expect, it } from 'vitest';

import { normalisePhone } from './phone';

describe('normalisePhone', () => {
  it.each([
    ['082 123 4567', '0821234567'],
    ['082-123-4567', '0821234567'],
    ['+27 82 123 4567', '0821234567'],
    ['0027821234567', '0821234567'],
    ['27821234567', '0821234567'],
    ['(011) 555 0100', '0115550100'],
  ])('%s → %s', (input, expected) => {
    expect(normalisePhone(input)).toBe(expected);
  });

  it.each(['12345', '082 123 456', '+44 20 7946 0958', '082 123 45678', 'phone'])(
    'rejects %s',
    (input) => {
      expect(normalisePhone(input)).toBeNull();
    },
  );
});
