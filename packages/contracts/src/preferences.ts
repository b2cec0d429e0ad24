import { z } from 'zod';

/**
 * Languages a user may choose (issue 19): South Africa's official languages with a written form
 * the gate uses, plus Portuguese for cross-border drivers. The web app speaks those it has a
 * catalogue for (apps/web/src/locales/languages.json) and English for the others.
 */
export const LANGUAGE_CODES = [
  'en',
  'af',
  'zu',
  'xh',
  'st',
  'tn',
  'nso',
  'ss',
  've',
  'ts',
  'nr',
  'pt',
] as const;
export const LanguageSchema = z.enum(LANGUAGE_CODES);
export type LanguageCode = z.infer<typeof LanguageSchema>;

/**
 * Each language named in itself, for lists that offer every language (a safety video may be
 * recorded in one the app has no catalogue for). Endonyms are not translated.
 */
export const LANGUAGE_NATIVE_NAMES: Readonly<Record<LanguageCode, string>> = {
  en: 'English',
  af: 'Afrikaans',
  zu: 'isiZulu',
  xh: 'isiXhosa',
  st: 'Sesotho',
  tn: 'Setswana',
  nso: 'Sepedi',
  ss: 'siSwati',
  ve: 'Tshivenḓa',
  ts: 'Xitsonga',
  nr: 'isiNdebele',
  pt: 'Português',
};

/** PATCH /api/auth/preferences: the signed-in user's own preferences. */
export const PreferencesBodySchema = z.object({ language: LanguageSchema }).strict();
export type PreferencesBody = z.infer<typeof PreferencesBodySchema>;

export const PreferencesSchema = z.object({ language: LanguageSchema.nullable() });
export type Preferences = z.infer<typeof PreferencesSchema>;
