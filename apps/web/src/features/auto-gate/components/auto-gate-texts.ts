import type { TFunction } from '@/lib/i18n';

import {
  AUTO_GATE_STATUS,
  PENDING_APPROVAL_STATUS,
  PIN_OVERRIDE_STATUS,
  REFUSED_STATUS,
} from './auto-gate-machine';
import { RULES_REFUSAL_STATUS } from './rules-refusal';

/**
 * Issue 19: the state machine keeps the spec's English status texts (its tests and the panels'
 * checks compare them); the screen shows each in the chosen language, found by its English text
 * (`autoGate:status.*`). A text the catalogue does not know is shown as it is.
 */
const STATUS_KEYS: Readonly<Record<string, string>> = {
  ...Object.fromEntries(Object.entries(AUTO_GATE_STATUS).map(([key, text]) => [text, key])),
  [PENDING_APPROVAL_STATUS]: 'pendingApproval',
  [REFUSED_STATUS]: 'refused',
  [PIN_OVERRIDE_STATUS]: 'pinOverride',
  [RULES_REFUSAL_STATUS.watchlist]: 'watchlist',
  [RULES_REFUSAL_STATUS.documentRule]: 'documentRule',
  [RULES_REFUSAL_STATUS.manualCheck]: 'manualCheck',
};

/** The status text in the chosen language; `t` must be the `autoGate` namespace's. */
export function statusText(t: TFunction<'autoGate'>, status: string): string {
  const key = STATUS_KEYS[status];
  return key ? t(`status.${key}`) : status;
}

/** The anti-spoofing score (0–1) as the guard reads it. */
export const formatLiveness = (t: TFunction<'autoGate'>, liveness: number | null) =>
  liveness === null ? t('details.notMeasured') : `${Math.round(liveness * 100)}%`;
