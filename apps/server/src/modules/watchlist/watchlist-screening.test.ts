import { describe, expect, it } from 'vitest';

import { type WatchlistKind, watchlistMatchKey } from '@boomgate/contracts/watchlist';

import {
  type WatchlistCandidate,
  maskWatchlistMessage,
  screenWatchlist,
  watchlistWarnings,
} from './watchlist-screening';

const NOW = new Date('2026-11-26T10:00:00Z');
let ids = 0;
const candidate = (
  kind: WatchlistKind,
  value: string,
  extra: Partial<WatchlistCandidate> = {},
): WatchlistCandidate => ({
  id: `entry-${++ids}`,
  kind,
  value,
  matchKey: watchlistMatchKey(kind, value),
  reason: 'Reason',
  severity: 'block',
  covert: false,
  expiresAt: null,
  ...extra,
});

describe('screenWatchlist', () => {
  it('blocks a plate written differently, with the reason in the message', () => {
    const result = screenWatchlist(
      { plateNumbers: ['CA123456'] },
      [candidate('plate', 'ca 123-456', { reason: 'Stolen' })],
      NOW,
    );
    expect(result.outcomes).toEqual([
      {
        source: 'watchlist',
        verdict: 'block',
        refusalReason: 'watchlist',
        code: 'watchlist_plate',
        message: 'Plate ca 123-456 is on the watchlist (block): Stolen',
      },
    ]);
    expect(result.hits).toHaveLength(1);
  });

  it('ignores expired entries and entries of another kind with the same text', () => {
    const result = screenWatchlist(
      { plateNumbers: ['AB12CD'], company: 'AB12CD' },
      [
        candidate('plate', 'AB12CD', { expiresAt: new Date(NOW.getTime()) }),
        candidate('idNumber', 'AB12CD'),
      ],
      NOW,
    );
    expect(result).toEqual({ outcomes: [], hits: [] });
  });

  it('hides covert entries: one "Manual check required" for blocks, nothing for alerts', () => {
    const result = screenWatchlist(
      { plateNumbers: ['AB12CD'], idNumber: '8001015009087', company: 'Acme' },
      [
        candidate('plate', 'AB12CD', { covert: true, reason: 'Secret 1' }),
        candidate('idNumber', '8001015009087', { covert: true, reason: 'Secret 2' }),
        candidate('company', 'ACME', { covert: true, severity: 'alert', reason: 'Secret 3' }),
      ],
      NOW,
    );
    expect(result.outcomes).toEqual([
      {
        source: 'watchlist',
        verdict: 'block',
        refusalReason: 'watchlist',
        code: 'watchlist_covert',
        message: 'Manual check required',
      },
    ]);
    expect(result.hits.map((hit) => hit.reason)).toEqual(['Secret 1', 'Secret 2', 'Secret 3']);
    expect(JSON.stringify(watchlistWarnings(result.outcomes))).not.toContain('Secret');
  });

  it('turns an alert into a warning and a block into a critical warning', () => {
    const { outcomes } = screenWatchlist(
      { plateNumbers: ['AB12CD'], company: 'Acme Ltd.' },
      [candidate('plate', 'AB12CD'), candidate('company', 'acme ltd', { severity: 'alert' })],
      NOW,
    );
    expect(watchlistWarnings(outcomes).map((w) => [w.severity, w.fields])).toEqual([
      ['critical', ['plateNumber']],
      ['warning', ['transportName']],
    ]);
  });
});

describe('the number a watchlist message quotes (issue 26)', () => {
  it('quotes an ID or passport number masked, as the screens show it', () => {
    const { outcomes } = screenWatchlist(
      { plateNumbers: [], idNumber: '8001015009087' },
      [candidate('idNumber', '8001015009087', { reason: 'Banned' })],
      NOW,
    );
    expect(outcomes.map((o) => o.message)).toEqual([
      'Driver ID number *********9087 is on the watchlist (block): Banned',
    ]);
  });

  it('masks a message stored before, and leaves any other message as it is', () => {
    const old = 'Driver ID number A1234567 is on the watchlist (alert): Fraud (see 2026)';
    expect(maskWatchlistMessage(old)).toBe(
      'Driver ID number ****4567 is on the watchlist (alert): Fraud (see 2026)',
    );
    const masked = maskWatchlistMessage(old);
    expect(maskWatchlistMessage(masked)).toBe(masked);
    const plate = 'Plate CA 123-456 is on the watchlist (block): Stolen';
    expect(maskWatchlistMessage(plate)).toBe(plate);
  });
});
