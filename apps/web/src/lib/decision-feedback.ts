import { useEffect } from 'react';

/**
 * Issue 19: a guard with gloves, in noise and sun, may not be looking at the screen when the
 * verdict arrives. `signalDecision` buzzes (Vibration API, Android) and beeps (Web Audio, every
 * browser once the page has had a tap) where the device allows; it never throws and does nothing
 * where neither exists (iOS Safari has no vibration). Approval: one short buzz and a high beep;
 * refusal: three buzzes and two low beeps, told apart without looking.
 */
export type Decision = 'approved' | 'refused';

export const VIBRATION_PATTERNS: Record<Decision, number[]> = {
  approved: [120],
  refused: [200, 100, 200, 100, 200],
};

const TONES: Record<Decision, { frequency: number; starts: number[]; length: number }> = {
  approved: { frequency: 880, starts: [0], length: 0.15 },
  refused: { frequency: 220, starts: [0, 0.25], length: 0.2 },
};

let audioContext: AudioContext | null = null;

function beep(decision: Decision) {
  const AudioContextClass =
    typeof window === 'undefined' ? undefined : (window.AudioContext ?? undefined);
  if (!AudioContextClass) return;
  audioContext ??= new AudioContextClass();
  const context = audioContext;
  const { frequency, starts, length } = TONES[decision];
  for (const start of starts) {
    const oscillator = context.createOscillator();
    const gain = context.createGain();
    oscillator.type = 'square';
    oscillator.frequency.value = frequency;
    gain.gain.value = 0.15;
    oscillator.connect(gain).connect(context.destination);
    oscillator.start(context.currentTime + start);
    oscillator.stop(context.currentTime + start + length);
  }
}

export function signalDecision(decision: Decision): void {
  try {
    if (typeof navigator !== 'undefined' && typeof navigator.vibrate === 'function') {
      navigator.vibrate(VIBRATION_PATTERNS[decision]);
    }
  } catch {
    // A blocked vibration is no reason to lose the verdict.
  }
  try {
    beep(decision);
  } catch {
    // Audio may be blocked until the page has had a tap.
  }
}

/**
 * Signals a verdict once, when the screen shows it: `decision` goes from null (or the other
 * verdict, a supervisor's override) to the verdict on screen.
 */
export function useDecisionFeedback(decision: Decision | null): void {
  useEffect(() => {
    if (decision) signalDecision(decision);
  }, [decision]);
}
