import catalogueLanguages from '@/locales/languages.json';

/**
 * The languages the app speaks, in the order the pickers list them, each named in itself.
 * `apps/web/src/locales/languages.json` is the one list (the CI check reads it too); its `review`
 * says whether a native speaker has checked the catalogue.
 */
export const LANGUAGES = Object.entries(catalogueLanguages).map(([code, entry]) => ({
  code,
  nativeName: entry.nativeName,
  review: entry.review,
}));

export type Language = string;

export const SOURCE_LANGUAGE = 'en';
/** Per device: the last language chosen on this browser (also before signing in). */
export const LANGUAGE_STORAGE_KEY = 'ui-language';

export const isSupportedLanguage = (code: unknown): code is Language =>
  typeof code === 'string' && LANGUAGES.some((language) => language.code === code);

export function readStoredLanguage(): Language | undefined {
  try {
    const stored = window.localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return isSupportedLanguage(stored) ? stored : undefined;
  } catch {
    return undefined; // storage can be unavailable (privacy modes)
  }
}

export function storeLanguage(code: Language) {
  try {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, code);
  } catch {
    // The choice still applies for this visit.
  }
}
