/**
 * The app's translations (react-i18next on i18next). Screens call `useTranslation(namespace)`
 * from here, which also makes sure the instance is set up (tests import screens directly).
 */
import './i18n';

export { Trans, useTranslation } from 'react-i18next';
export type { TFunction } from 'i18next';
export { i18next, i18nReady, loadScreenTexts } from './i18n';
export { LANGUAGES, SOURCE_LANGUAGE, isSupportedLanguage, type Language } from './languages';
export { changeLanguage, useCurrentLanguage } from './change-language';
export { contractMessage, translateContractMessage, translateServerError } from './server-errors';
