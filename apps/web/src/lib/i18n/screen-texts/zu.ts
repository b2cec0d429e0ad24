/**
 * Every screen catalogue of this language in one chunk: loadScreenTexts() fetches one file
 * instead of one per screen (on a phone's link each extra request is another round trip before
 * the first signed-in screen). The first-load catalogues are not here (i18n.ts).
 */
export default import.meta.glob<Record<string, unknown>>(
  [
    '../../../locales/zu/*.json',
    '!../../../locales/zu/{alerts,auth,common,errors,mfa,nav,offline,shared}.json',
  ],
  { eager: true, import: 'default' },
);
