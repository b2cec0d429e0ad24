import { format } from 'date-fns';

import { i18next } from './i18n/i18n';

/**
 * Spec §9 truck-list formats in English ('MMM dd, yyyy', 'HH:mm:ss', exactly as the spec gives
 * them); in another language the same fields in that language's order and month names (Intl).
 * Intl falls back to a related locale when the browser lacks one (e.g. `st` → English months).
 */
export const formatDate = (value: Date | string) =>
  isEnglish()
    ? format(new Date(value), 'MMM dd, yyyy')
    : new Intl.DateTimeFormat(i18next.language, {
        year: 'numeric',
        month: 'short',
        day: '2-digit',
      }).format(new Date(value));
export const formatTime = (value: Date | string) =>
  isEnglish()
    ? format(new Date(value), 'HH:mm:ss')
    : new Intl.DateTimeFormat(i18next.language, {
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
        hourCycle: 'h23',
      }).format(new Date(value));

/** A count or measure in the user's language (digit grouping, decimal comma in af and pt). */
export const formatNumber = (value: number, options?: Intl.NumberFormatOptions) =>
  new Intl.NumberFormat(i18next.language, options).format(value);

const isEnglish = () => !i18next.language || i18next.language === 'en';

// Kept in its own module so the sign-in screens and the app shell do not load date-fns for it.
export { displayName } from './display-name';
