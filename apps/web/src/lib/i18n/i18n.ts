import i18next, { type BackendModule, type ReadCallback } from 'i18next';
import { initReactI18next } from 'react-i18next';

import enAlerts from '@/locales/en/alerts.json';
import enAuth from '@/locales/en/auth.json';
import enCommon from '@/locales/en/common.json';
import enErrors from '@/locales/en/errors.json';
import enMfa from '@/locales/en/mfa.json';
import enNav from '@/locales/en/nav.json';
import enOffline from '@/locales/en/offline.json';
import enShared from '@/locales/en/shared.json';

import { SOURCE_LANGUAGE, readStoredLanguage } from './languages';

/**
 * The English the first screen needs ships with the first load: sign-in (auth, mfa, errors), the
 * signed-in shell (nav, the alert bell, the offline banner), what can show before any screen (the
 * error page, the app-update toast, the password confirmation: shared) and common words. Every other
 * catalogue, English included, is a chunk of its own: `loadScreenTexts()` fetches the current
 * language's before a signed-in screen first renders (app/lazy-screen.tsx), so the sign-in page
 * does not carry the texts of every screen (the e2e first-load budget, 200 KB gzip).
 */
const firstLoadEnglish = {
  alerts: enAlerts,
  auth: enAuth,
  common: enCommon,
  errors: enErrors,
  mfa: enMfa,
  nav: enNav,
  offline: enOffline,
  shared: enShared,
};
const FIRST_LOAD_NAMESPACES = Object.keys(firstLoadEnglish);

// The eager English files above are excluded here: each file is either in the first load or lazy.
const lazyCatalogues = import.meta.glob<{ default: Record<string, unknown> }>([
  '../../locales/*/*.json',
  '!../../locales/en/alerts.json',
  '!../../locales/en/auth.json',
  '!../../locales/en/common.json',
  '!../../locales/en/errors.json',
  '!../../locales/en/mfa.json',
  '!../../locales/en/nav.json',
  '!../../locales/en/offline.json',
  '!../../locales/en/shared.json',
]);

const namespaceOf = (path: string) => /\/([^/]+)\.json$/.exec(path)?.[1] ?? '';

/** Every namespace there is: the English catalogue files' names. */
export const NAMESPACES = [
  ...new Set([
    ...FIRST_LOAD_NAMESPACES,
    ...Object.keys(lazyCatalogues)
      .filter((path) => path.startsWith(`../../locales/${SOURCE_LANGUAGE}/`))
      .map(namespaceOf),
  ]),
].sort();
const SCREEN_NAMESPACES = NAMESPACES.filter((ns) => !FIRST_LOAD_NAMESPACES.includes(ns));

/** Loads `<language>/<namespace>.json` on demand (Vite turns each into its own small chunk). */
const lazyBackend: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read(language: string, namespace: string, callback: ReadCallback) {
    const load = lazyCatalogues[`../../locales/${language}/${namespace}.json`];
    if (!load) {
      callback(null, {}); // an unknown namespace for this language: English answers (fallbackLng)
      return;
    }
    load().then(
      (module) => callback(null, module.default),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null),
    );
  },
};

const initial = readStoredLanguage() ?? SOURCE_LANGUAGE;

// Synchronous for English (its resources are here), so the first render already has its texts;
// main.tsx waits for `i18nReady` before the first render when another language must load first.
export const i18nReady = i18next
  .use(lazyBackend)
  .use(initReactI18next)
  .init({
    lng: initial,
    fallbackLng: SOURCE_LANGUAGE,
    ns: FIRST_LOAD_NAMESPACES,
    defaultNS: 'common',
    resources: { [SOURCE_LANGUAGE]: firstLoadEnglish },
    partialBundledLanguages: true,
    initAsync: false,
    interpolation: { escapeValue: false }, // React escapes
    react: { useSuspense: false },
    returnNull: false,
  });

document.documentElement.lang = initial;
i18next.on('languageChanged', (language) => {
  document.documentElement.lang = language;
});

/**
 * Fetches the catalogues of every screen in the current language (and English, the fallback);
 * once fetched, i18next keeps them and loads them again in a language chosen later. Never rejects:
 * a catalogue that cannot load leaves its keys to the English fallback.
 */
export function loadScreenTexts(): Promise<void> {
  return i18nReady.then(() => i18next.loadNamespaces(SCREEN_NAMESPACES)).catch(() => undefined);
}

export { i18next };
