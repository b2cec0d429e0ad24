import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { FIRST_SCREEN_GRACE_MS, afterFirstScreen } from './after-first-screen';

describe('afterFirstScreen', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('waits out the first screen, then loads once when the page is quiet', () => {
    const load = vi.fn();
    afterFirstScreen(load);
    vi.advanceTimersByTime(FIRST_SCREEN_GRACE_MS - 1);
    expect(load).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1 + 2000); // the grace, then the idle callback (or its timeout)
    expect(load).toHaveBeenCalledTimes(1);
    window.dispatchEvent(new Event('pointerdown'));
    vi.advanceTimersByTime(10_000);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('loads at once on the first tap or key', () => {
    const load = vi.fn();
    afterFirstScreen(load);
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'a' }));
    expect(load).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(FIRST_SCREEN_GRACE_MS * 3);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('never loads once cancelled', () => {
    const load = vi.fn();
    const cancel = afterFirstScreen(load);
    cancel();
    window.dispatchEvent(new Event('pointerdown'));
    vi.advanceTimersByTime(FIRST_SCREEN_GRACE_MS * 3);
    expect(load).not.toHaveBeenCalled();
  });
});
