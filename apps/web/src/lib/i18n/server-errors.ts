import enErrors from '@/locales/en/errors.json';

import { i18next } from './i18n';

/**
 * Messages the catalogue words, found by their English text: `errors:contract.<key>` (the shared
 * contracts' zod messages, `packages/contracts`) and `errors:server.<key>` (the AppError messages
 * of the routes guards and the back office use daily). In English an entry is the message byte
 * for byte, so the catalogue is the only list (a message changed in English simply stops
 * matching and shows as it is). `node scripts/ci/contract-messages.mjs` (in `npm run lint`)
 * fails when a message has no entry, or an entry no contract or route says.
 */
type Section = 'contract' | 'server';
type Entry = { key: string; values?: Record<string, string> };

const PLACEHOLDER = /\{\{\s*(\w+)\s*\}\}/;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A message built from a template (`${label} is required.`) is worded with placeholders
 * (`{{label}} is required.`): matched as a pattern, its holes passed on as they are.
 */
function patternOf(message: string): RegExp {
  const seen = new Set<string>();
  const source = message
    .split(PLACEHOLDER)
    .map((part, index) => {
      if (index % 2 === 0) return escapeRegExp(part);
      if (seen.has(part)) return `\\k<${part}>`;
      seen.add(part);
      return `(?<${part}>.+?)`;
    })
    .join('');
  return new RegExp(`^${source}$`);
}

function finder(catalogue: Record<string, string>): (message: string) => Entry | null {
  const exact = new Map(Object.entries(catalogue).map(([key, message]) => [message, key]));
  const patterns = Object.entries(catalogue)
    .filter(([, message]) => PLACEHOLDER.test(message))
    .map(([key, message]) => ({ key, pattern: patternOf(message) }));
  return (message) => {
    const key = exact.get(message);
    if (key) return { key };
    for (const { key: patternKey, pattern } of patterns) {
      const match = pattern.exec(message);
      if (match) return { key: patternKey, values: { ...match.groups } };
    }
    return null;
  };
}

const FINDERS: Record<Section, (message: string) => Entry | null> = {
  contract: finder(enErrors.contract),
  server: finder(enErrors.server),
};

const wordedIn = (section: Section, message: string): string | null => {
  const entry = FINDERS[section](message);
  return entry ? i18next.t(`errors:${section}.${entry.key}`, entry.values ?? {}) : null;
};

const isEnglish = () => !i18next.language || i18next.language === 'en';

/**
 * A contract's validation message (a zod issue's, checked on the device or answered by the
 * server) in the user's language; a message the catalogue does not know is shown as it is.
 */
export function translateContractMessage(message: string): string {
  if (isEnglish()) return message;
  return wordedIn('contract', message) ?? message;
}

/**
 * A server error's sentence in the user's language (issue 19: "translated by code"): the server
 * speaks English, and in English its own message is shown unchanged (spec §8). In another
 * language a contract or server message the catalogue words is shown as such (it says more than
 * the code); otherwise the `errors` catalogue's sentence for the code. Codes the catalogue does
 * not know keep the server's message.
 */
export function translateServerError(code: string | undefined, message: string): string {
  if (!code || isEnglish()) return message;
  const worded = wordedIn('contract', message) ?? wordedIn('server', message);
  if (worded) return worded;
  const key = `errors:${code}`;
  return i18next.exists(key) ? i18next.t(key) : message;
}

/** `translateContractMessage` for an optional message (a zod issue that may be absent). */
export const contractMessage = (message: string | undefined): string | undefined =>
  message === undefined ? undefined : translateContractMessage(message);
