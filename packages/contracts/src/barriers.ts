import { z } from 'zod';

import { EntryLogSchema } from './entry-logs';
import { IdSchema, TimestampSchema } from './primitives';

/**
 * Barriers (issue 17): the cloud never connects into a site's LAN. A site agent at the gate keeps
 * one WebSocket open to `GET /api/agent/connect` (Bearer: the gate's agent token) and drives the
 * device; these are the messages on that socket and the HTTP shapes around it.
 */

/** The device kinds an agent can drive. */
export const BARRIER_DEVICE_KINDS = ['shelly', 'hikvision', 'modbus', 'http'] as const;
export const BarrierDeviceKindSchema = z.enum(BARRIER_DEVICE_KINDS);
export type BarrierDeviceKind = z.infer<typeof BarrierDeviceKindSchema>;

/** Why a barrier was opened by hand (`POST /api/gates/{id}/open`). */
export const GATE_OPEN_REASONS = ['manual_override', 'emergency', 'maintenance', 'test'] as const;
export const GateOpenReasonSchema = z.enum(GATE_OPEN_REASONS);
export type GateOpenReason = z.infer<typeof GateOpenReasonSchema>;

/**
 * What came of an open command. Fail closed: only `opened` means the device confirmed the boom is
 * up; `not_opened` covers refusals, errors, unconfirmed pulses, dropped and timed-out commands;
 * `offline` means no agent was connected for the gate.
 */
export const GATE_OPEN_RESULTS = ['opened', 'not_opened', 'offline'] as const;
export const GateOpenResultSchema = z.enum(GATE_OPEN_RESULTS);
export type GateOpenResult = z.infer<typeof GateOpenResultSchema>;

// ----- agent wire protocol (JSON text frames) -----------------------------------------------

/** Server → agent, first frame after the upgrade: lets the agent measure its clock offset. */
export const AgentHelloSchema = z.object({
  type: z.literal('hello'),
  gateId: IdSchema,
  serverTime: z.number().int(),
  heartbeatIntervalMs: z.number().int().positive(),
});

/** Server → agent: pulse the barrier open once. */
export const AgentOpenCommandSchema = z.object({
  type: z.literal('open'),
  commandId: IdSchema,
  /** The decision (entry id or manual-open id) this pulse belongs to; the agent pulses once per decision. */
  decisionId: z.string().min(1).max(80),
  /** Server clock (ms since the epoch) when the command was issued. */
  issuedAt: z.number().int(),
});
export type AgentOpenCommand = z.infer<typeof AgentOpenCommandSchema>;

/**
 * Server → agent, in answer to each heartbeat: another clock sample. The agent keeps the least
 * delayed one, so a slow hello does not make a late command look fresh.
 */
export const AgentTimeSchema = z.object({ type: z.literal('time'), serverTime: z.number().int() });

export const ServerToAgentMessageSchema = z.discriminatedUnion('type', [
  AgentHelloSchema,
  AgentTimeSchema,
  AgentOpenCommandSchema,
]);
export type ServerToAgentMessage = z.infer<typeof ServerToAgentMessageSchema>;

/** What the agent did with a command. `dropped`: stale or a second command for a decision. */
export const AGENT_COMMAND_OUTCOMES = ['opened', 'not_opened', 'dropped'] as const;

export const AgentResultSchema = z.object({
  type: z.literal('result'),
  commandId: IdSchema,
  decisionId: z.string().min(1).max(80),
  outcome: z.enum(AGENT_COMMAND_OUTCOMES),
  /** Short, operator-facing: why not opened, or what confirmed the opening. */
  detail: z.string().max(300),
  /** Time the agent spent on the device (ms). */
  deviceMs: z.number().nonnegative(),
});
export type AgentResult = z.infer<typeof AgentResultSchema>;

export const AgentHeartbeatSchema = z.object({
  type: z.literal('heartbeat'),
  device: BarrierDeviceKindSchema,
  agentVersion: z.string().max(40),
});

export const AgentToServerMessageSchema = z.discriminatedUnion('type', [
  AgentResultSchema,
  AgentHeartbeatSchema,
]);
export type AgentToServerMessage = z.infer<typeof AgentToServerMessageSchema>;

// ----- HTTP ---------------------------------------------------------------------------------

export const GateIdParamsSchema = z.object({ id: IdSchema });

export const GateAgentTokenSchema = z.object({
  gateId: IdSchema,
  /** Shown once; only its hash is stored. Creating a new one ends the old one. */
  token: z.string(),
  /** The path the agent connects to (WebSocket). */
  connectPath: z.literal('/api/agent/connect'),
  createdAt: TimestampSchema,
});
export type GateAgentToken = z.infer<typeof GateAgentTokenSchema>;

export const OpenGateBodySchema = z.object({ reason: GateOpenReasonSchema }).strict();
export type OpenGateBody = z.infer<typeof OpenGateBodySchema>;

export const GateOpenOutcomeSchema = z.object({
  /** True only when the device confirmed the opening. */
  opened: z.boolean(),
  result: GateOpenResultSchema,
  gateId: IdSchema,
  decisionId: z.string(),
  detail: z.string(),
  /** Command sent → result received (ms); null when no command was sent. */
  latencyMs: z.number().nullable(),
});
export type GateOpenOutcome = z.infer<typeof GateOpenOutcomeSchema>;

export const GateBarrierStatusSchema = z.object({
  gateId: IdSchema,
  online: z.boolean(),
  /**
   * Whether an API process holds the agent's connection (stored; `online` is this process's live
   * view). With `lastSeenAt` it is the gate's presence badge.
   */
  connected: z.boolean(),
  device: BarrierDeviceKindSchema.nullable(),
  lastSeenAt: TimestampSchema.nullable(),
  hasToken: z.boolean(),
});
export type GateBarrierStatus = z.infer<typeof GateBarrierStatusSchema>;

/**
 * grant-entry's 201: the entry, and what its gate's barrier did (null: the entry names no gate with
 * a barrier, or was refused). The result panel shows it under 'Entry approved - gate opening'.
 */
export const EntryWithBarrierSchema = EntryLogSchema.extend({
  barrier: GateOpenOutcomeSchema.nullable(),
});
export type EntryWithBarrier = z.infer<typeof EntryWithBarrierSchema>;
