/**
 * Issue 28 (ADR 0009): the payloads of the facts a site node sends up, and how central reads
 * them. A payload is the site's own row as to_jsonb gives it (snake_case columns), so the node
 * sends what it stored without a mapping of its own:
 *
 * - `entry`: the site's entry_logs row. The event's id IS the entry's id (central stores the entry
 *   under it); `payload.id`, when present, must equal it. Optional extra member
 *   `site_sync_version`: the down-sync version the node had applied when it decided (shown in
 *   a stale-decision flag). `objects`: the images it carried inline (not captures), sealed,
 *   base64 by key; `documents`: the document rows it cites (identity document, driver's licence,
 *   passport, licence discs, weighbridge ticket) with their images. Central stores both, so its
 *   entry detail opens every image and document of a site entry.
 * - `exit`: the site's visits row once closed (`entry_log_id`, `exited_at`, `exit_gate_id`,
 *   `exit_source`, `exited_by`, `exited_by_name`, `exit_ticket_number`, `exit_seal_numbers`,
 *   `exit_mismatches`). Central closes the visit of that entry.
 * - `capture`: the site's captures row plus `object`, the stored object's bytes base64 as they are
 *   in the site's storage (sealed with the tenant's data key, which the node holds from central).
 *   Central stores the bytes under the same `image_key` and the row under the fact's id.
 * - `face_comparison`, `correction`, `audit`: the site's face_comparisons, reading_corrections
 *   and audit_events row, inserted under the fact's id (sealed values stay sealed: the same
 *   tenant keys open them). An audit event keeps the site's `occurred_at`.
 * For these four the fact's id IS the row's id (`payload.id`, when present, must equal it).
 *
 * Unknown members are kept in the stored fact and ignored when applying; the columns applied are
 * checked here (types, enums, sizes), so a bad payload is a 400, never a database error.
 */
import { z } from 'zod';

import { EntryWarningSchema } from '@boomgate/contracts/entry-checks';

const when = z
  .string()
  .refine((value) => !Number.isNaN(Date.parse(value)), 'must be a date and time');
const optionalText = z.string().max(500).nullable().optional();

/** A capture's object: at most 20 MB of base64 (images are re-encoded and far smaller). */
export const SITE_CAPTURE_OBJECT_MAX_BASE64 = 20 * 1024 * 1024;

const base64Object = z
  .string()
  .min(1)
  .max(SITE_CAPTURE_OBJECT_MAX_BASE64)
  .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'must be base64');

/** The document tables an entry cites (its document id columns), carried with the entry. */
export const SITE_DOCUMENT_TABLES = [
  'identity_documents',
  'drivers_licences',
  'passports',
  'licence_discs',
  'weighbridge_tickets',
] as const;

/**
 * A document the entry cites: the site's row as stored (sealed values stay sealed) and, when it
 * holds an image that is not a capture (a capture travels as its own fact), that object sealed,
 * base64, as a capture's is.
 */
export const SiteDocumentSchema = z.object({
  table: z.enum(SITE_DOCUMENT_TABLES),
  row: z.looseObject({
    id: z.uuid(),
    created_at: when,
    image_key: z.string().max(200).nullable().optional(),
  }),
  object: base64Object.optional(),
});
export type SiteDocument = z.infer<typeof SiteDocumentSchema>;

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
  /** The face comparison the entry claimed at the site (central links the two). */
  face_comparison_id: z.uuid().nullable().optional(),
  /**
   * The images the entry carried inline (its image fields whose keys are not captures': driver
   * photo, licence, passport, permits), each stored object sealed, base64, by its key.
   */
  objects: z.record(z.string().max(200), base64Object).optional(),
  /**
   * Image keys of the entry (or of a document it carries) whose objects the node sent on their
   * own (`POST /api/site-sync/objects`) before this fact, because the entry with them inline
   * would not fit a batch: central holds them already and checks that it does.
   */
  objects_uploaded: z.array(z.string().max(200)).max(50).optional(),
  /** Image keys of the entry the site could not read from its storage (said, never hidden). */
  objects_missing: z.array(z.string().max(200)).max(50).optional(),
  /** The documents the entry cites (its document id columns), with their images. */
  documents: z.array(SiteDocumentSchema).max(20).optional(),
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

const uuid = z.uuid();
const optionalUuid = uuid.nullable().optional();
const at = when.transform((value) => new Date(value).toISOString());

export const SiteCapturePayloadSchema = z
  .object({
    id: uuid.optional(),
    created_at: at,
    created_by: optionalUuid,
    type: z.string().trim().min(1).max(40),
    image_key: z.string().max(200),
    reading: z.record(z.string(), z.unknown()).nullable().optional(),
    // The keyed hashes of the reading's sealed ID/passport numbers (issue 26), made with the
    // tenant's index key that the node holds too (POST /api/site-sync/keys).
    number_hashes: z.array(z.string().max(200)).max(50).nullable().optional(),
    /** Absent only when `objects_missing` names the image: the node no longer holds it. */
    object: base64Object.optional(),
    /**
     * `[image_key]` when the node no longer held the capture's object when it sent the fact (the
     * site purged it, and central asks for the fact again after a restore): central keeps the fact
     * and its row, says the image is gone (audit `site.sync.objects-missing`), and stores no object.
     */
    objects_missing: z.array(z.string().max(200)).max(1).optional(),
  })
  .superRefine((capture, context) => {
    const missing = capture.objects_missing ?? [];
    if (capture.object === undefined && !(missing.length === 1 && missing[0] === capture.image_key))
      context.addIssue({
        code: 'custom',
        path: ['object'],
        message: 'required, unless objects_missing names the image_key',
      });
    if (capture.object !== undefined && missing.length > 0)
      context.addIssue({
        code: 'custom',
        path: ['objects_missing'],
        message: 'names an object the fact carries',
      });
  });
export type SiteCapturePayload = z.infer<typeof SiteCapturePayloadSchema>;

export const SiteFaceComparisonPayloadSchema = z.object({
  id: uuid.optional(),
  compared_at: at,
  compared_by: optionalUuid,
  approved_vehicle_id: optionalUuid,
  driver_id: optionalUuid,
  reference: z.enum(['descriptor', 'photo', 'image']),
  match_score: z.number().min(0).max(100),
  decision: z.enum(['match', 'no_match', 'spoof_suspected']),
  liveness: z.number().min(0).max(1).nullable().optional(),
  antispoof_gating: z.boolean(),
  antispoof_threshold: z.number().min(0).max(1),
  antispoof_passed: z.boolean().nullable().optional(),
  used_by_entry_id: optionalUuid,
  live_capture_id: optionalUuid,
});
export type SiteFaceComparisonPayload = z.infer<typeof SiteFaceComparisonPayloadSchema>;

export const SiteCorrectionPayloadSchema = z.object({
  id: uuid.optional(),
  capture_id: optionalUuid,
  reading_type: z.string().trim().min(1).max(40),
  field: z.string().trim().min(1).max(100),
  kind: z.enum(['confirmed', 'corrected', 'typed']),
  read_value: z.object({ value: z.unknown() }).nullable().optional(),
  read_confidence: z.number().min(0).max(1).nullable().optional(),
  read_source: z.string().max(40).nullable().optional(),
  was_uncertain: z.boolean(),
  typed_value: z.string().max(2000),
  typed_value_hash: z.string().max(200).nullable().optional(),
  corrected_by: optionalUuid,
  corrected_by_name: optionalText,
  corrected_at: at,
  entry_log_id: optionalUuid,
  document_type: z.string().max(60).nullable().optional(),
  document_id: optionalUuid,
});
export type SiteCorrectionPayload = z.infer<typeof SiteCorrectionPayloadSchema>;

export const SiteAuditPayloadSchema = z.object({
  id: uuid.optional(),
  occurred_at: at,
  actor_user_id: optionalUuid,
  action: z.string().trim().min(1).max(100),
  target_type: z.string().max(100).nullable().optional(),
  target_id: z.string().max(200).nullable().optional(),
  ip: z.string().max(100).nullable().optional(),
  details: z.record(z.string(), z.unknown()).nullable().optional(),
});
export type SiteAuditPayload = z.infer<typeof SiteAuditPayloadSchema>;

function parse<T>(schema: z.ZodType<T>, payload: unknown): T {
  const result = schema.safeParse(payload);
  if (result.success) return result.data;
  const [issue] = result.error.issues;
  throw new Error(issue ? `payload.${issue.path.join('.')}: ${issue.message}` : 'invalid payload');
}

export const parseSiteEntryPayload = (payload: unknown) => parse(SiteEntryPayloadSchema, payload);
export const parseSiteExitPayload = (payload: unknown) => parse(SiteExitPayloadSchema, payload);
export const parseSiteCapturePayload = (payload: unknown) =>
  parse(SiteCapturePayloadSchema, payload);
export const parseSiteFaceComparisonPayload = (payload: unknown) =>
  parse(SiteFaceComparisonPayloadSchema, payload);
export const parseSiteCorrectionPayload = (payload: unknown) =>
  parse(SiteCorrectionPayloadSchema, payload);
export const parseSiteAuditPayload = (payload: unknown) => parse(SiteAuditPayloadSchema, payload);
