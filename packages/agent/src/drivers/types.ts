import type { BarrierDeviceKind } from '@boomgate/contracts/barriers';

/**
 * What a pulse came to. Fail closed: `opened` is true only when the device itself confirmed the
 * boom is up (relay output read back on, barrier status "open", position input closed, or the
 * configured HTTP answer); everything else, errors included, is `opened: false` with a reason.
 */
export type PulseOutcome = { opened: boolean; detail: string };

export interface BarrierDriver {
  readonly kind: BarrierDeviceKind;
  /** One momentary open pulse. Never throws: a failure is an outcome with `opened: false`. */
  pulse(): Promise<PulseOutcome>;
}

export const notOpened = (detail: string): PulseOutcome => ({ opened: false, detail });

export const describeError = (error: unknown): string => {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return 'the device did not answer in time';
  }
  // Libraries reject with plain objects too (jsmodbus: { err, message }).
  if (
    error &&
    typeof error === 'object' &&
    'message' in error &&
    typeof error.message === 'string'
  ) {
    return error.message;
  }
  return String(error);
};
