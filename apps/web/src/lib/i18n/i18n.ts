import i18next, { type BackendModule, type ReadCallback } from 'i18next';
import { initReactI18next } from 'react-i18next';

import enAlerts from '@/locales/en/alerts.json';
import enAudit from '@/locales/en/audit.json';
import enAuth from '@/locales/en/auth.json';
import enCommon from '@/locales/en/common.json';
import enDashboard from '@/locales/en/dashboard.json';
import enEntries from '@/locales/en/entries.json';
import enErrors from '@/locales/en/errors.json';
import enInduction from '@/locales/en/induction.json';
import enIntegrations from '@/locales/en/integrations.json';
import enMfa from '@/locales/en/mfa.json';
import enNav from '@/locales/en/nav.json';
import enOffline from '@/locales/en/offline.json';
import enOnboarding from '@/locales/en/onboarding.json';
import enOnSite from '@/locales/en/onSite.json';
import enReports from '@/locales/en/reports.json';
import enScan from '@/locales/en/scan.json';
import enSettings from '@/locales/en/settings.json';
import enShared from '@/locales/en/shared.json';
import enTrucks from '@/locales/en/trucks.json';
import enUsers from '@/locales/en/users.json';
import enVehicles from '@/locales/en/vehicles.json';
import enWeighbridge from '@/locales/en/weighbridge.json';

import { SOURCE_LANGUAGE, readStoredLanguage } from './languages';

/** English ships with the first load; every other catalogue is a chunk of its own. */
export const english = {
  alerts: enAlerts,
  audit: enAudit,
  auth: enAuth,
  common: enCommon,
  dashboard: enDashboard,
  entries: enEntries,
  errors: enErrors,
  induction: enInduction,
  integrations: enIntegrations,
  mfa: enMfa,
  nav: enNav,
  offline: enOffline,
  onboarding: enOnboarding,
  onSite: enOnSite,
  reports: enReports,
  scan: enScan,
  settings: enSettings,
  shared: enShared,
  trucks: enTrucks,
  users: enUsers,
  vehicles: enVehicles,
  weighbridge: enWeighbridge,
};
export const NAMESPACES = Object.keys(english) as (keyof typeof english)[];

const lazyCatalogues = import.meta.glob<{ default: Record<string, unknown> }>([
  '../../locales/*/*.json',
  '!../../locales/en/*.json',
]);

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
    ns: NAMESPACES,
    defaultNS: 'common',
    resources: { [SOURCE_LANGUAGE]: english },
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

export { i18next };
