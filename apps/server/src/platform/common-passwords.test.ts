import { describe, expect, it } from 'vitest';

import { isCommonPassword } from './common-passwords';

describe('isCommonPassword', () => {
  it.each([
    '123456',
    'password',
    'qwerty',
    'Password',
    'PASSWORD1',
    'iloveyou',
    'letmein',
    'trustno1',
    'secret1',
    'football',
  ])('refuses %s, a password from the breach lists', (password) => {
    expect(isCommonPassword(password)).toBe(true);
  });

  it.each(['correct-horse-1', 'Gate-pass-1', 'kP9#vQ2!mZ', 'weighbridge at dawn'])(
    'accepts %s',
    (password) => {
      expect(isCommonPassword(password)).toBe(false);
    },
  );
});
