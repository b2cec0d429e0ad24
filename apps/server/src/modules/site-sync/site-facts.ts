/**
 * Issue 28 (ADR 0009): the payloads of the facts a site node sends up, and how central reads
 * them. A payload is the site's own row as to_jsonb gives it (snake_case columns), so the node
 * sends what it stored without a mapping of its own:
 *
 * - `entry`: the site's entry_logs row. The event's id IS the entry's id (central stores the entry
 *   under it); `payload.id`, when present, must equal it. Optional extra member
 *   `site_sync_version`: the down-sync version the node had applied when it decided (shown in
 *   a stale-decision flag).
 * - `exit`: the site's visits row once closed (`entry_log_id`, `exited_at`, `exit_gate_id`,
 *   `exit_source`, `exited_by`, `exited_by_name`, `exit_ticket_number`, `exit_seal_numbers`,
 *   `exit_mismatches`). Central closes the visit of that entry.
 * - `capture`, `face_comparison`, `correction`, `audit`: stored as received (site_sync_events),
 *   not applied to central's own tables yet.
 *
 * Unknown members are kept in the stored fact and ignored when applying.
 */
import { z } from 'zod';

import { EntryWarningSchema } from '@boomgate/contracts/entry-checks';

const when = z
  .string()
  .refine((value) => !Number.isNaN(Date.parse(value)), 'must be a date and time');
const optionalText = z.string().max(500).nullable().optional();

export const SiteEntryPayloadSchema = z.looseObject({
  id: z.uuid().optional(),
  plate_number: z.string().trim().min(1).max(20),
  entry_granted: z.boolean(),
  vehicle_approved: z.boolean(),
  face_verified: z.boolean(),
  category: z.enum(['visitor', 'contracted']).optional(),
  refusal_reason: optionalText,
  driver_name: optionalText,
  driver_surname: optionalText,
  driver_id_number: optionalText,
  transport_name: optionalText,
  trailer_plates: z.array(z.string().max(20)).max(4).optional(),
  recorded_by: z.uuid().nullable().optional(),
  recorded_by_name: optionalText,
  warnings: z.array(EntryWarningSchema).max(100).optional(),
  site_sync_version: z.number().int().min(0).optional(),
});
export type SiteEntryPayload = z.infer<typeof SiteEntryPayloadSchema>;

export const SiteExitPayloadSchema = z.looseObject({
  entry_log_id: z.uuid().nullable().optional(),
  exited_at: when,
  exit_gate_id: z.uuid().nullable().optional(),
  exit_source: z.enum(['guard', 'anpr', 'webhook']).nullable().optional(),
  exited_by: z.uuid().nullable().optional(),
  exited_by_name: optionalText,
  exit_ticket_number: optionalText,
  exit_seal_numbers: z.array(z.string().max(100)).max(20).nullable().optional(),
  exit_mismatches: z.array(z.record(z.string(), z.unknown())).max(20).nullable().optional(),
});
export type SiteExitPayload = z.infer<typeof SiteExitPayloadSchema>;

function parse<T>(schema: z.ZodType<T>, payload: unknown): T {
  const result = schema.safeParse(payload);
  if (result.success) return result.data;
  const [issue] = result.error.issues;
  throw new Error(issue ? `payload.${issue.path.join('.')}: ${issue.message}` : 'invalid payload');
}

export const parseSiteEntryPayload = (payload: unknown) => parse(SiteEntryPayloadSchema, payload);
export const parseSiteExitPayload = (payload: unknown) => parse(SiteExitPayloadSchema, payload);
