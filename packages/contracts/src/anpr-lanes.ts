import { z } from 'zod';

import { GateOpenOutcomeSchema } from './barriers';
import { IdSchema, TimestampSchema } from './primitives';
import { PlateNumberSchema } from './plates';

/**
 * Issue 17: automatic lanes. A fixed ANPR camera on a lane marked `automatic` reports each plate
 * it reads through the gate's site agent (`POST /api/anpr/reads`, Bearer: the gate's agent
 * token). The server decides: on an in-lane an approved vehicle without a face step is granted
 * (logged like any entry) and the barrier opens; an out-lane records the exit and opens the out
 * barrier. Everything else waits for a guard.
 */
export const AnprLaneReadBodySchema = z.object({
  plateNumber: PlateNumberSchema,
  /** The lane's name at the agent's gate (GateLane.name, case-insensitive). */
  lane: z.string().trim().min(1).max(100),
  /** When the camera read the plate (default: now). */
  capturedAt: TimestampSchema.optional(),
  /** The camera's own confidence, 0..100, kept in the audit. */
  confidence: z.number().min(0).max(100).optional(),
});
export type AnprLaneReadBody = z.input<typeof AnprLaneReadBodySchema>;

/**
 * What the server made of a read:
 * - `granted`: an entry was logged and granted; `barrier` is what the boom did;
 * - `refused`: an entry was logged and refused (not on the register, expired, a rule blocked it);
 * - `guard_required`: the vehicle needs a face step or the read cannot be decided here; nothing
 *   was logged and the barrier stays closed;
 * - `exit_recorded`: the plate's open visit was closed; `barrier` is what the out barrier did;
 * - `no_visit`: an out-lane read of a plate not on site; nothing changed, the barrier stays closed.
 */
export const ANPR_LANE_DECISIONS = [
  'granted',
  'refused',
  'guard_required',
  'exit_recorded',
  'no_visit',
] as const;
export const AnprLaneDecisionSchema = z.enum(ANPR_LANE_DECISIONS);
export type AnprLaneDecision = z.infer<typeof AnprLaneDecisionSchema>;

export const AnprLaneReadResultSchema = z.object({
  decision: AnprLaneDecisionSchema,
  plateNumber: z.string(),
  gateId: IdSchema,
  lane: z.string(),
  direction: z.enum(['in', 'out']),
  entryId: IdSchema.nullable(),
  visitId: IdSchema.nullable(),
  refusalReason: z.string().nullable(),
  barrier: GateOpenOutcomeSchema.nullable(),
});
export type AnprLaneReadResult = z.infer<typeof AnprLaneReadResultSchema>;
