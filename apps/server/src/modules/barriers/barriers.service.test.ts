import { describe, expect, it } from 'vitest';

import { outcomeOf } from './barriers.service';

const gateId = '00000000-0000-4000-8000-000000000001';
const result = (outcome: 'opened' | 'not_opened' | 'dropped') => ({
  type: 'result' as const,
  commandId: '00000000-0000-4000-8000-000000000002',
  decisionId: 'd1',
  outcome,
  detail: `agent said ${outcome}`,
  deviceMs: 12,
});

describe('outcomeOf (fail closed)', () => {
  it('is opened only when the agent reports the device confirmed it', () => {
    expect(
      outcomeOf(gateId, 'd1', {
        ok: true,
        result: result('opened'),
        latencyMs: 30,
        device: 'shelly',
      }),
    ).toEqual({
      opened: true,
      result: 'opened',
      gateId,
      decisionId: 'd1',
      detail: 'agent said opened',
      latencyMs: 30,
    });
  });

  it.each(['not_opened', 'dropped'] as const)('an agent result %s is not_opened', (outcome) => {
    expect(
      outcomeOf(gateId, 'd1', {
        ok: true,
        result: result(outcome),
        latencyMs: 5,
        device: 'modbus',
      }),
    ).toMatchObject({ opened: false, result: 'not_opened', detail: `agent said ${outcome}` });
  });

  it('no agent is offline; a lost connection or no answer in time is not_opened', () => {
    expect(
      outcomeOf(gateId, 'd1', { ok: false, failure: 'offline', latencyMs: null, device: null }),
    ).toMatchObject({ opened: false, result: 'offline', latencyMs: null });
    for (const failure of ['disconnected', 'timeout'] as const) {
      expect(
        outcomeOf(gateId, 'd1', { ok: false, failure, latencyMs: 900, device: 'http' }),
      ).toMatchObject({ opened: false, result: 'not_opened', latencyMs: 900 });
    }
  });
});
