import { useSyncExternalStore } from 'react';

import { i18next } from './i18n';
import { type Language, SOURCE_LANGUAGE, isSupportedLanguage, storeLanguage } from './languages';

/**
 * Switches the app's language: the catalogue is fetched first (the screen keeps its texts until
 * then), the choice is kept on this device, and `<html lang>` follows (i18n.ts). Saving it on the
 * account is the caller's part (features/auth `useSetLanguage`), for a signed-in user.
 */
export async function changeLanguage(code: Language): Promise<void> {
  const language = isSupportedLanguage(code) ? code : SOURCE_LANGUAGE;
  storeLanguage(language);
  if (i18next.resolvedLanguage === language && i18next.language === language) return;
  await i18next.changeLanguage(language);
}

const subscribe = (onChange: () => void) => {
  i18next.on('languageChanged', onChange);
  return () => i18next.off('languageChanged', onChange);
};

/** The language the screens speak now; re-renders when it changes. */
export function useCurrentLanguage(): Language {
  return useSyncExternalStore(subscribe, () => i18next.language);
}
