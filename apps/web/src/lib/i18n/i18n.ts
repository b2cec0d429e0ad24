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

// The first-load catalogues of the other languages, one small chunk each (English's are above).
const firstLoadCatalogues = import.meta.glob<{ default: Record<string, unknown> }>([
  '../../locales/*/{alerts,auth,common,errors,mfa,nav,offline,shared}.json',
  '!../../locales/en/*.json',
]);
/** Every screen catalogue of a language, one chunk per language (screen-texts/<language>.ts). */
const screenTextBundles = import.meta.glob<{ default: Record<string, Record<string, unknown>> }>(
  './screen-texts/*.ts',
);

const namespaceOf = (path: string) => /\/([^/]+)\.json$/.exec(path)?.[1] ?? '';

/** A language's screen catalogues by namespace, fetched once (a failed fetch may be tried again). */
const screenTexts = new Map<string, Promise<Record<string, Record<string, unknown>>>>();
function screenTextsOf(language: string): Promise<Record<string, Record<string, unknown>>> {
  const load = screenTextBundles[`./screen-texts/${language}.ts`];
  if (!load) return Promise.resolve({});
  let loading = screenTexts.get(language);
  if (!loading) {
    loading = load().then(
      (module) =>
        Object.fromEntries(
          Object.entries(module.default).map(([path, texts]) => [namespaceOf(path), texts]),
        ),
      (error: unknown) => {
        screenTexts.delete(language);
        throw error;
      },
    );
    screenTexts.set(language, loading);
  }
  return loading;
}

/** Loads a language's catalogue on demand: a first-load file, or its screens' bundle. */
const lazyBackend: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read(language: string, namespace: string, callback: ReadCallback) {
    const firstLoad = firstLoadCatalogues[`../../locales/${language}/${namespace}.json`];
    const texts = firstLoad
      ? firstLoad().then((module) => module.default)
      : FIRST_LOAD_NAMESPACES.includes(namespace)
        ? Promise.resolve({}) // not translated: English answers (fallbackLng)
        : screenTextsOf(language).then((bundle) => bundle[namespace] ?? {});
    texts.then(
      (resources) => callback(null, resources),
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
    // A copy: i18next adds every namespace it loads to this array.
    ns: [...FIRST_LOAD_NAMESPACES],
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
 * Fetches the catalogues of every screen in the current language (and English, the fallback): one
 * chunk per language. Once fetched, i18next keeps them and loads them again in a language chosen
 * later. Never rejects: a catalogue that cannot load leaves its keys to the English fallback.
 */
export function loadScreenTexts(): Promise<void> {
  return (
    i18nReady
      // The current language's bundle downloads beside English's, not after it.
      .then(() => Promise.all([screenTextsOf(SOURCE_LANGUAGE), screenTextsOf(i18next.language)]))
      .then(([english]) => i18next.loadNamespaces(Object.keys(english)))
      .catch(() => undefined)
  );
}

export { i18next };
