import { dictionary } from '@zxcvbn-ts/language-common';

/**
 * SEC-28 / ASVS 6.2.4 and 6.2.12: new passwords are checked against the passwords most used in
 * published breaches, offline (CI and sites have no network). The list is zxcvbn's, from the npm
 * package @zxcvbn-ts/language-common (MIT): about 49,000 passwords drawn from breach corpora,
 * most frequent first, so it covers any "top 3,000" list. Compared case-insensitively, as
 * "Password" is guessed as soon as "password" is.
 */
export const COMMON_PASSWORD_MESSAGE =
  'This password is one of the most common and easily guessed. Please choose another.';

let known: Set<string> | undefined;

/** Built on first use (about 49,000 short strings, a few MiB), not at import. */
function commonPasswords(): Set<string> {
  known ??= new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));
  return known;
}

export function isCommonPassword(password: string): boolean {
  return commonPasswords().has(password.toLowerCase());
}
