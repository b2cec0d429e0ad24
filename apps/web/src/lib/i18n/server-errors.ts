import enErrors from '@/locales/en/errors.json';

import { i18next } from './i18n';

/**
 * The shared contracts' (zod, `packages/contracts`) messages the catalogue words, found by their
 * English text: `errors:contract.<key>` in English is the contract's message, byte for byte, so
 * the catalogue is the only list (a contract message changed in English simply stops matching
 * and shows as the contract says it). `node scripts/ci/contract-messages.mjs` (in `npm run lint`)
 * fails when a contract message has no entry, or an entry no contract says.
 */
const CONTRACT_KEYS: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(enErrors.contract).map(([key, message]) => [message, key]),
);

const PLACEHOLDER = /\{\{\s*(\w+)\s*\}\}/;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A contract message built from a template (`${label} is required.`) is worded with
 * placeholders (`{{label}} is required.`): matched as a pattern, its holes passed on as they are.
 */
const CONTRACT_PATTERNS: ReadonlyArray<{ key: string; pattern: RegExp }> = Object.entries(
  enErrors.contract,
)
  .filter(([, message]) => PLACEHOLDER.test(message))
  .map(([key, message]) => {
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
    return { key, pattern: new RegExp(`^${source}$`) };
  });

/** The catalogue key (and placeholder values) wording a contract message, if any. */
function contractEntry(message: string): { key: string; values?: Record<string, string> } | null {
  const key = CONTRACT_KEYS[message];
  if (key) return { key };
  for (const { key: patternKey, pattern } of CONTRACT_PATTERNS) {
    const match = pattern.exec(message);
    if (match) return { key: patternKey, values: { ...match.groups } };
  }
  return null;
}

const isEnglish = () => !i18next.language || i18next.language === 'en';

/**
 * A contract's validation message (a zod issue's, checked on the device or answered by the
 * server) in the user's language; a message the catalogue does not know is shown as it is.
 */
export function translateContractMessage(message: string): string {
  if (isEnglish()) return message;
  const entry = contractEntry(message);
  return entry ? i18next.t(`errors:contract.${entry.key}`, entry.values ?? {}) : message;
}

/**
 * A server error's sentence in the user's language (issue 19: "translated by code"): the server
 * speaks English, and in English its own message is shown unchanged (spec §8). In another
 * language a contract message the catalogue words is shown as such (it says more than the code);
 * otherwise the `errors` catalogue's sentence for the code. Codes the catalogue does not know
 * keep the server's message.
 */
export function translateServerError(code: string | undefined, message: string): string {
  if (!code || isEnglish()) return message;
  if (contractEntry(message)) return translateContractMessage(message);
  const key = `errors:${code}`;
  return i18next.exists(key) ? i18next.t(key) : message;
}

/** `translateContractMessage` for an optional message (a zod issue that may be absent). */
export const contractMessage = (message: string | undefined): string | undefined =>
  message === undefined ? undefined : translateContractMessage(message);
