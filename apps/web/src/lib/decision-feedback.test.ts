import { afterEach, describe, expect, it, vi } from 'vitest';

import { VIBRATION_PATTERNS, signalDecision } from './decision-feedback';

describe('signalDecision (issue 19)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('buzzes once for an approval and three times for a refusal', () => {
    const vibrate = vi.fn(() => true);
    Object.defineProperty(navigator, 'vibrate', { value: vibrate, configurable: true });

    signalDecision('approved');
    signalDecision('refused');

    expect(vibrate.mock.calls).toEqual([
      [VIBRATION_PATTERNS.approved],
      [VIBRATION_PATTERNS.refused],
    ]);
    expect(VIBRATION_PATTERNS.refused.filter((_, i) => i % 2 === 0)).toHaveLength(3);
    Reflect.deleteProperty(navigator, 'vibrate');
  });

  it('beeps once high for an approval and twice low for a refusal', () => {
    const started: { frequency: number }[] = [];
    class FakeAudioContext {
      currentTime = 0;
      destination = {};
      createGain() {
        return { gain: { value: 0 }, connect: (node: unknown) => node };
      }
      createOscillator() {
        const oscillator = {
          type: '',
          frequency: { value: 0 },
          connect: (node: unknown) => node,
          start: () => started.push({ frequency: oscillator.frequency.value }),
          stop: () => undefined,
        };
        return oscillator;
      }
    }
    vi.stubGlobal('AudioContext', FakeAudioContext);

    signalDecision('approved');
    signalDecision('refused');

    expect(started).toEqual([{ frequency: 880 }, { frequency: 220 }, { frequency: 220 }]);
  });

  it('does nothing, and does not throw, where the device allows neither', () => {
    vi.stubGlobal('AudioContext', undefined);
    expect(() => signalDecision('refused')).not.toThrow();
  });
});
