import { i18next } from './i18n';

/**
 * A server error's sentence in the user's language, found by its code (`errors` namespace): the
 * server speaks English, and in English its own message is shown unchanged (spec §8). Codes the
 * catalogue does not know keep the server's message.
 */
export function translateServerError(code: string | undefined, message: string): string {
  if (!code || i18next.language === 'en') return message;
  const key = `errors:${code}`;
  return i18next.exists(key) ? i18next.t(key) : message;
}
