import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { INCOMING_FEED_COUNT_HEADERS } from '@boomgate/contracts/webhooks';

import { i18next } from '@/lib/i18n';
import { aSession } from '@/testing/data';
import { createGateApi } from '@/testing/gate-api';
import { signedIn } from '@/testing/handlers';
import { renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';

/**
 * Issue 19: a screen never shows a catalogue key ("status.readingPlate") where a text belongs: a
 * key missing from every catalogue (English included) renders as itself. Each known screen is
 * rendered in isiZulu; i18next reports every key it found in no catalogue, and the screen's texts,
 * labels and title are searched for anything shaped like a key as well.
 */
const missingKeys: string[] = [];
beforeEach(() => {
  missingKeys.length = 0;
  i18next.options.saveMissing = true;
  i18next.options.missingKeyHandler = (_languages, namespace, key) => {
    missingKeys.push(`${namespace}:${key}`);
  };
});
afterEach(() => {
  i18next.options.saveMissing = false;
  i18next.options.missingKeyHandler = false;
});
const SCREENS = [
  { path: '/', heading: 'Ideshibhodi Yesistimu' },
  { path: '/auto-gate', heading: 'Ukungena Esangweni Okuzenzakalelayo' },
  { path: '/incoming-feed', heading: 'Okungenayo' },
  { path: '/weighbridge', heading: null },
  { path: '/truck-list', heading: null },
];

/** A namespaced or dotted catalogue key standing alone: `status.approved`, `autoGate:title`. */
const KEY_SHAPE = /^([a-z][a-zA-Z]*:)?[a-z][a-zA-Z0-9]*(\.[a-zA-Z0-9_]+)+$/;

function keysShown(): string[] {
  const texts: string[] = [document.title];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    texts.push(node.textContent ?? '');
  }
  for (const element of document.body.querySelectorAll(
    '[aria-label], [placeholder], [alt], [title]',
  )) {
    for (const name of ['aria-label', 'placeholder', 'alt', 'title']) {
      const value = element.getAttribute(name);
      if (value) texts.push(value);
    }
  }
  return texts.map((text) => text.trim()).filter((text) => KEY_SHAPE.test(text));
}

describe('no screen shows a catalogue key instead of its text (issue 19)', () => {
  it.each(SCREENS)('$path in isiZulu', async ({ path, heading }) => {
    await i18next.changeLanguage('zu');
    server.use(
      signedIn(aSession({ user: { role: 'tenant_admin' } })),
      ...createGateApi().handlers,
      http.patch('/api/auth/preferences', () => HttpResponse.json({ language: 'zu' })),
      http.get('/api/webhook/pending-requests', () =>
        HttpResponse.json([], {
          headers: {
            [INCOMING_FEED_COUNT_HEADERS.total]: '0',
            [INCOMING_FEED_COUNT_HEADERS.processed]: '0',
            [INCOMING_FEED_COUNT_HEADERS.pending]: '0',
          },
        }),
      ),
    );
    renderApp(path);

    const title = await screen.findByRole('heading', { level: 1 });
    if (heading) expect(title).toHaveTextContent(heading);
    expect(keysShown()).toEqual([]);
    expect(missingKeys).toEqual([]);
  });

  it('would see a key that no catalogue has', async () => {
    await i18next.changeLanguage('zu');
    const shown = i18next.t('autoGate:status.notInAnyCatalogue');
    expect(KEY_SHAPE.test(shown)).toBe(true);
    i18next.t('autoGate:subtitleX');
    expect(missingKeys).toEqual(['autoGate:status.notInAnyCatalogue', 'autoGate:subtitleX']);
    // A key English has but isiZulu lacks falls back to English: the catalogue check's concern.
    i18next.t('autoGate:title');
    expect(missingKeys).toHaveLength(2);
  });
});
