import { z } from 'zod';

import { CorrectionListSchema } from './corrections';
import { CaptureIdSchema } from './images';
import { PlateNumberSchema, normalisePlate } from './plates';
import { IdSchema, PageQuerySchema, TimestampSchema } from './primitives';

// ---------------------------------------------------------------------------------------------
// Inbound: vehicle entries posted by external systems (spec §3 "Incoming request entry").
// ---------------------------------------------------------------------------------------------

/** Trimmed text; blank or missing becomes null. */
const Text = (max = 120) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((value) => value || null);

/** The largest inbound body we read (bytes); larger posts get 413 before any parsing. */
export const INCOMING_REQUEST_BODY_LIMIT_BYTES = 256 * 1024;

/**
 * What an external system posts to `POST /api/webhook/incoming/{tenantId}`, signed with the
 * tenant's integration secret (Standard Webhooks). Unknown fields are ignored. At least one of
 * plate, reference, driver name or ID number must be present.
 */
export const IncomingRequestPayloadSchema = z
  .object({
    /** When the vehicle was seen by the sender; defaults to the time we received it. */
    timestamp: TimestampSchema.nullish().transform((value) => value ?? null),
    plateNumber: z
      .string()
      .max(40)
      .nullish()
      .transform((value) => (value ? normalisePlate(value) || null : null)),
    driverName: Text(),
    driverSurname: Text(),
    driverIdNumber: Text(32),
    driverPhone1: Text(32),
    transportName: Text(),
    referenceNumber: Text(),
    weighbridgeTicketId: Text(),
    /** Licence-disc data the sender already read: a JSON string or object (transporterName, visitId …). */
    extractedDiskData: z
      .union([z.string().max(16_384), z.record(z.string(), z.unknown())])
      .nullish()
      .transform((value) =>
        value === null || value === undefined || value === ''
          ? null
          : typeof value === 'string'
            ? value
            : JSON.stringify(value),
      )
      .refine((value) => value === null || value.length <= 16_384, 'extractedDiskData is too long'),
    /**
     * Issue 16: the site the vehicle is coming to (one of the tenant's, from `GET /api/sites`);
     * omitted: the tenant's default site. Another tenant's or an unknown site is refused (400).
     */
    siteId: IdSchema.optional(),
    /**
     * The spec's incoming entry (§6) lists an id: a sender may echo its own, which is neither
     * stored nor trusted (the entry's id is ours; the webhook-id header deduplicates).
     */
    id: z.union([z.string().max(100), z.number()]).optional(),
  })
  // SEC-10: every body schema is strict, the signed one too; an unknown key is refused with 400.
  .strict()
  .refine(
    (entry) =>
      Boolean(
        entry.plateNumber || entry.referenceNumber || entry.driverName || entry.driverIdNumber,
      ),
    'Send at least one of plateNumber, referenceNumber, driverName or driverIdNumber.',
  );
export type IncomingRequestPayload = z.input<typeof IncomingRequestPayloadSchema>;

export const IncomingRequestAckSchema = z.object({
  id: IdSchema,
  /** True when this webhook-id was received before; nothing new was stored. */
  duplicate: z.boolean(),
});
export type IncomingRequestAck = z.infer<typeof IncomingRequestAckSchema>;

export const IncomingRequestParamsSchema = z.object({ tenantId: IdSchema });

// ---------------------------------------------------------------------------------------------
// The incoming feed (spec §2, §4, §7).
// ---------------------------------------------------------------------------------------------

export const IncomingRequestStatusSchema = z.enum(['Complete', 'Incomplete']);
export type IncomingRequestStatus = z.infer<typeof IncomingRequestStatusSchema>;

/** Spec §2/§4: complete once both a driver name and a driver ID number exist. */
export function incomingRequestStatus(entry: {
  driverName: string | null;
  driverIdNumber: string | null;
}): IncomingRequestStatus {
  return entry.driverName?.trim() && entry.driverIdNumber?.trim() ? 'Complete' : 'Incomplete';
}

/**
 * Issue 21: a trailer of a processed entry's rig, with the licence disc the completion cited for
 * it (`discNumber` and `discExpiry` as read from that disc, `dateOfExpiry` as written on it; all
 * null when none was scanned). The feed lists these and the completion callback sends them.
 */
export const IncomingTrailerSchema = z.object({
  plateNumber: z.string(),
  licenceDiscId: IdSchema.nullable(),
  discNumber: z.string().nullable(),
  discExpiry: z.string().nullable(),
});
export type IncomingTrailer = z.infer<typeof IncomingTrailerSchema>;

/** Issue 21: a warning a completion was accepted with: the rule's code and its sentence. */
export const IncomingWarningSchema = z.object({ code: z.string(), message: z.string() });
export type IncomingWarning = z.infer<typeof IncomingWarningSchema>;

/**
 * Issue 21: what the completion's document rules judged, document by document: the stored reading
 * of a capture taken in the Process Vehicle Entry dialog (`source: 'reading'`, its `captureId`),
 * or, where none was read, the details the completion states (`source: 'stated'`, no capture).
 */
export const IncomingRuleEvidenceSchema = z.object({
  document: z.enum(['driversLicence', 'identityDocument']),
  source: z.enum(['reading', 'stated']),
  captureId: IdSchema.nullable(),
});
export type IncomingRuleEvidence = z.infer<typeof IncomingRuleEvidenceSchema>;

export const IncomingRequestEntrySchema = z.object({
  id: IdSchema,
  timestamp: TimestampSchema,
  plateNumber: z.string().nullable(),
  driverName: z.string().nullable(),
  driverSurname: z.string().nullable(),
  driverIdNumber: z.string().nullable(),
  driverPhone1: z.string().nullable(),
  transportName: z.string().nullable(),
  referenceNumber: z.string().nullable(),
  weighbridgeTicketId: z.string().nullable(),
  /** JSON text as the sender gave it; may hold transporterName and visitId. */
  extractedDiskData: z.string().nullable(),
  status: IncomingRequestStatusSchema,
  completedAt: TimestampSchema.nullable(),
  /**
   * Issue 15: once processed, the gate entry recorded for its plate first at or after the request
   * arrived (within INCOMING_ENTRY_LINK_WINDOW_MS), opened at /entry-logs/{id}; null otherwise.
   */
  entryLogId: IdSchema.nullable().default(null),
  /**
   * Issue 21: the trailers the completion named (a rig's plates, in order; empty before it is
   * processed or for a rigid vehicle) and the trailers' licence discs it cited (documents' ids),
   * and the two paired as `trailers` (each plate with its disc as read). An edit starts from them.
   */
  trailerPlates: z.array(z.string()).default([]),
  trailerLicenceDiscIds: z.array(IdSchema).default([]),
  trailers: z.array(IncomingTrailerSchema).default([]),
  /**
   * Issue 21: the warnings the completion was accepted with (the rig check, e.g. a weighbridge
   * ticket naming a trailer the rig lacks, and the `warn` document rules), stored on the entry;
   * empty before it is processed. Never a watchlist outcome (an alert may be covert).
   */
  warnings: z.array(IncomingWarningSchema).default([]),
  /**
   * Issue 21: the documents the completion's document rules judged (a capture's stored reading,
   * else the stated details, marked so); empty before it is processed.
   */
  ruleEvidence: z.array(IncomingRuleEvidenceSchema).default([]),
});
export type IncomingRequestEntry = z.infer<typeof IncomingRequestEntrySchema>;
/**
 * How long after an incoming request arrives its vehicle's gate entry is linked to it: 24 hours
 * (a booking is pushed the day the truck comes; the entry carries no reference of the request).
 */
export const INCOMING_ENTRY_LINK_WINDOW_MS = 24 * 60 * 60 * 1000;
export const IncomingRequestListSchema = z.array(IncomingRequestEntrySchema);

/**
 * GET /api/webhook/pending-requests answers one page (newest first, `PageQuerySchema`); these
 * headers carry the spec §2 cards over every incoming entry of the tenant, not just the page.
 */
export const INCOMING_FEED_COUNT_HEADERS = {
  /** Total Requests. */
  total: 'x-total-count',
  /** Processed: driver name and driver ID number both present. */
  processed: 'x-processed-count',
  /** Pending Processing: the rest. */
  pending: 'x-pending-count',
} as const;
export type IncomingFeedSummary = Record<keyof typeof INCOMING_FEED_COUNT_HEADERS, number>;

export const IncomingRequestIdParamsSchema = z.object({ id: IdSchema });

/** Spec §3 "Completion payload": what the Process Vehicle Entry dialog sends. */
export const ProcessRequestBodySchema = z
  .object({
    plateNumber: PlateNumberSchema,
    driverName: z.string().trim().min(1, 'Driver name is required').max(120),
    driverSurname: Text(),
    driverIdNumber: z.string().trim().min(1, 'Driver ID number is required').max(32),
    driverPhone: Text(32),
    transportName: Text(),
    driverLicenseNumber: Text(32),
    driverLicenseValidTo: Text(32),
    driverDateOfBirth: Text(32),
    driverSex: Text(16),
    /**
     * REL-04, optional so that callers written before it keep working: the entry's `completedAt`
     * as the caller last saw it. null: the entry must not be processed yet; a timestamp: it must
     * still carry exactly that completion (an edit). Otherwise the call answers 409 CONFLICT and
     * sends no callback. Omitted: the call completes or edits whatever is there (the behaviour
     * before REL-04); concurrent calls are serialised, each queueing one callback for its own
     * completion.
     */
    expectedCompletedAt: TimestampSchema.nullable().optional(),
    /**
     * Issue 15: what the back office typed, confirmed or corrected for each extracted field
     * (the plate, ID, licence, disc and ticket readings the dialog shows). Stored with the
     * entry beside the value read from the capture, with who and when; the reading itself is
     * never changed. Optional: callers written before it send none.
     */
    corrections: CorrectionListSchema,
    /**
     * Issue 21: the trailers the truck-tractor pulls (at most 2), as the back office read them.
     * Each must be on the approved vehicle's rig with a disc in date; otherwise the completion is
     * refused (422, as for a watchlist block). Screened by the watchlist like the plate.
     */
    trailerPlates: z.array(PlateNumberSchema).max(2, 'A rig has at most 2 trailers').default([]),
    /**
     * Issue 21: the trailers' licence discs, saved first (POST /api/licence-disc) and cited by
     * id: each must belong to a trailer in `trailerPlates` and be in date.
     */
    trailerLicenceDiscIds: z
      .array(IdSchema)
      .max(2, 'A rig has at most 2 trailers')
      .refine((ids) => new Set(ids).size === ids.length, 'Cite each trailer disc once')
      .default([]),
    /**
     * Issue 21: the Weighbridge Ticket tab's capture (POST /api/ocr's `captureId`, read as
     * `weighbridge`). The trailer registrations the server read on it are matched against the
     * approved vehicle's rig: a trailer the rig lacks is a warning (`warnings`), never a refusal.
     */
    weighbridgeTicketCaptureId: CaptureIdSchema.nullish().transform((value) => value ?? null),
    /**
     * Issue 21: the Driver's License and ID Document tabs' captures (POST /api/ocr's `captureId`,
     * read as `license` and `id`). The document rules judge the readings the server stored for
     * them, not the details stated above; the stated details only for a document not captured,
     * and the verdict then says so. A capture that is not the organization's reading of that
     * type is a 400.
     */
    driversLicenceCaptureId: CaptureIdSchema.nullish().transform((value) => value ?? null),
    identityDocumentCaptureId: CaptureIdSchema.nullish().transform((value) => value ?? null),
  })
  .strict();
export type ProcessRequestBody = z.input<typeof ProcessRequestBodySchema>;

/**
 * The processed entry, and whether its `incoming-request.completed` callback was queued for a
 * callback URL that can take it (set, not disabled after a 410, and a secret to sign with). When
 * false the completion is saved all the same; no callback goes anywhere until an admin sets one up.
 */
export const ProcessRequestResponseSchema = IncomingRequestEntrySchema.extend({
  callbackQueued: z.boolean(),
  /**
   * Issue 21: what the rig check found worth a look but not a refusal (a weighbridge ticket naming
   * a trailer the rig lacks: code `ticket_trailer_unknown`); also in the completion's audit event.
   */
  warnings: z.array(IncomingWarningSchema).default([]),
});
export type ProcessRequestResponse = z.infer<typeof ProcessRequestResponseSchema>;

/** Spec §2 fallbacks for the feed table: transporter and visit id from the disc data. */
export function parseExtractedDiskData(text: string | null): {
  transporterName: string | null;
  visitId: string | null;
} {
  if (!text) return { transporterName: null, visitId: null };
  try {
    const parsed: unknown = JSON.parse(text);
    if (!parsed || typeof parsed !== 'object') return { transporterName: null, visitId: null };
    const record = parsed as Record<string, unknown>;
    const asText = (value: unknown) =>
      typeof value === 'string' && value.trim()
        ? value.trim()
        : typeof value === 'number'
          ? String(value)
          : null;
    return { transporterName: asText(record.transporterName), visitId: asText(record.visitId) };
  } catch {
    return { transporterName: null, visitId: null };
  }
}

// ---------------------------------------------------------------------------------------------
// Spec §5 payload precedence: pure rules the browser dialog applies before it sends the
// completion payload. Inputs are what the request already holds plus what was captured.
// ---------------------------------------------------------------------------------------------

export type ExistingRequestData = {
  plateNumber?: string | null;
  driverName?: string | null;
  driverSurname?: string | null;
  driverIdNumber?: string | null;
  driverPhone1?: string | null;
  transportName?: string | null;
};
export type CapturedPlate = {
  registrationNumber?: string | null;
  plateNumber?: string | null;
  extractedPlate?: string | null;
};
export type CapturedLicence = {
  nameOnCard?: string | null;
  licenceNumber?: string | null;
  idNumber?: string | null;
  validTo?: string | null;
  phone1?: string | null;
  phone2?: string | null;
  phone3?: string | null;
};
export type CapturedIdDocument = {
  givenNames?: string | null;
  surname?: string | null;
  identityNumber?: string | null;
  dateOfBirth?: string | null;
  sex?: string | null;
  phone1?: string | null;
};
export type CapturedDocuments = {
  plate?: CapturedPlate | null;
  licence?: CapturedLicence | null;
  id?: CapturedIdDocument | null;
};

const present = (value: string | null | undefined): string | null => value?.trim() || null;
const first = (...values: (string | null | undefined)[]) =>
  values.map(present).find((value) => value !== null) ?? null;

/** Spec §5: an ID number read from a document has slashes removed and its first two characters dropped. */
export function cleanExtractedIdNumber(raw: string): string {
  return raw.replaceAll('/', '').slice(2);
}

/** Name: licence nameOnCard wins; then ID givenNames (with surname) only if no name exists. */
export function resolveDriverName(
  existing: ExistingRequestData,
  captured: CapturedDocuments,
): { driverName: string | null; driverSurname: string | null } {
  const nameOnCard = present(captured.licence?.nameOnCard);
  const existingName = present(existing.driverName);
  const existingSurname = present(existing.driverSurname);
  if (nameOnCard) return { driverName: nameOnCard, driverSurname: existingSurname };
  if (existingName) return { driverName: existingName, driverSurname: existingSurname };
  const givenNames = present(captured.id?.givenNames);
  if (givenNames) {
    return { driverName: givenNames, driverSurname: first(captured.id?.surname, existingSurname) };
  }
  return { driverName: null, driverSurname: existingSurname };
}

/** ID number: the ID document's identityNumber wins over the licence's idNumber, then what exists. */
export function resolveDriverIdNumber(
  existing: ExistingRequestData,
  captured: CapturedDocuments,
): string | null {
  return first(captured.id?.identityNumber, captured.licence?.idNumber, existing.driverIdNumber);
}

/** Plate: the captured registrationNumber is used (normalised), else what exists. */
export function resolvePlateNumber(
  existing: ExistingRequestData,
  captured: CapturedDocuments,
): string | null {
  const plate = first(
    captured.plate?.registrationNumber,
    captured.plate?.plateNumber,
    captured.plate?.extractedPlate,
    existing.plateNumber,
  );
  return plate ? normalisePlate(plate) || null : null;
}

/** Phone: ID phone1, then licence phone1, phone2, phone3, then the original phone. */
export function resolveDriverPhone(
  existing: ExistingRequestData,
  captured: CapturedDocuments,
): string | null {
  return first(
    captured.id?.phone1,
    captured.licence?.phone1,
    captured.licence?.phone2,
    captured.licence?.phone3,
    existing.driverPhone1,
  );
}

export type MissingRequirement = 'Number Plate' | "Driver's License" | 'ID Document';

/**
 * Spec §5: completion needs a plate (existing or captured), a driver's licence (existing name or
 * captured) and an ID document (existing ID number or captured). Face and ticket never gate it.
 */
export function missingRequirements(
  existing: ExistingRequestData,
  captured: CapturedDocuments,
): MissingRequirement[] {
  const missing: MissingRequirement[] = [];
  if (!resolvePlateNumber(existing, captured)) missing.push('Number Plate');
  if (!present(existing.driverName) && !captured.licence) missing.push("Driver's License");
  if (!present(existing.driverIdNumber) && !captured.id) missing.push('ID Document');
  return missing;
}

/** The completion payload the dialog sends, with every precedence rule applied. */
export function buildCompletionPayload(
  existing: ExistingRequestData,
  captured: CapturedDocuments,
): ProcessRequestBody {
  const { driverName, driverSurname } = resolveDriverName(existing, captured);
  return {
    plateNumber: resolvePlateNumber(existing, captured) ?? '',
    driverName: driverName ?? '',
    driverSurname,
    driverIdNumber: resolveDriverIdNumber(existing, captured) ?? '',
    driverPhone: resolveDriverPhone(existing, captured),
    transportName: present(existing.transportName),
    driverLicenseNumber: present(captured.licence?.licenceNumber),
    driverLicenseValidTo: present(captured.licence?.validTo),
    driverDateOfBirth: present(captured.id?.dateOfBirth),
    driverSex: present(captured.id?.sex),
  };
}

// ---------------------------------------------------------------------------------------------
// Outbound: the callback Boomgate sends when an entry is processed.
// ---------------------------------------------------------------------------------------------

export const INCOMING_REQUEST_COMPLETED = 'incoming-request.completed';

/** Version 1 of the callback body. Receivers must ignore fields they do not know. */
export const IncomingRequestCompletedEventSchema = z.object({
  type: z.literal(INCOMING_REQUEST_COMPLETED),
  /** When the entry was processed (UTC ISO-8601). */
  timestamp: TimestampSchema,
  data: z.object({
    id: IdSchema,
    referenceNumber: z.string().nullable(),
    weighbridgeTicketId: z.string().nullable(),
    plateNumber: z.string(),
    driverName: z.string(),
    driverSurname: z.string().nullable(),
    driverIdNumber: z.string(),
    driverPhone: z.string().nullable(),
    transportName: z.string().nullable(),
    driverLicenseNumber: z.string().nullable(),
    driverLicenseValidTo: z.string().nullable(),
    driverDateOfBirth: z.string().nullable(),
    driverSex: z.string().nullable(),
    receivedAt: TimestampSchema,
    completedAt: TimestampSchema,
    /**
     * Issue 21 (added to version 1; receivers ignore what they do not know): the trailers the
     * truck-tractor pulls, as the completion named them (normalised plates, at most 2, in order;
     * empty for a rigid vehicle). Each passed the rig check before the completion was accepted.
     */
    trailerPlates: z.array(z.string()).default([]),
    /**
     * Issue 21: the same trailers, each with the licence disc scanned for it (null fields when
     * none was): `discNumber` and `discExpiry` as read from that disc (`dateOfExpiry`, as
     * written on it), `licenceDiscId` the stored disc.
     */
    trailers: z.array(IncomingTrailerSchema).default([]),
    /**
     * Issue 21 (added to version 1): the warnings the completion was accepted with (`code`,
     * `message`), as stored on the entry: the rig check (a ticket naming an unknown trailer)
     * and the `warn` document rules. Empty when none.
     */
    warnings: z.array(IncomingWarningSchema).default([]),
  }),
});
export type IncomingRequestCompletedEvent = z.infer<typeof IncomingRequestCompletedEventSchema>;

// ---------------------------------------------------------------------------------------------
// Integrations API (tenant_admin): secret, callback URL, delivery log, replay.
// ---------------------------------------------------------------------------------------------

export const IntegrationSchema = z.object({
  /** Where external systems post entries for this tenant. */
  incomingUrl: z.string(),
  hasSecret: z.boolean(),
  secretCreatedAt: TimestampSchema.nullable(),
  /** After a rotation the previous secret is still accepted (and also signs callbacks) until then. */
  previousSecretExpiresAt: TimestampSchema.nullable(),
  callbackUrl: z.string().nullable(),
  /** Set when the receiver answered 410 Gone; saving the callback URL again re-enables it. */
  callbackDisabledAt: TimestampSchema.nullable(),
  callbackDisabledReason: z.string().nullable(),
});
export type Integration = z.infer<typeof IntegrationSchema>;

export const IntegrationSecretSchema = z.object({
  /** `whsec_` + base64 of 32 random bytes. Shown once; store it in the sending system. */
  secret: z.string(),
  createdAt: TimestampSchema,
  previousSecretExpiresAt: TimestampSchema.nullable(),
});
export type IntegrationSecret = z.infer<typeof IntegrationSecretSchema>;

export const SetCallbackUrlBodySchema = z
  .object({ callbackUrl: z.string().trim().max(2048).nullable() })
  .strict();
export type SetCallbackUrlBody = z.infer<typeof SetCallbackUrlBodySchema>;

export const WebhookDeliveryStatusSchema = z.enum(['pending', 'delivered', 'failed']);
export type WebhookDeliveryStatus = z.infer<typeof WebhookDeliveryStatusSchema>;

export const WebhookDeliverySchema = z.object({
  id: IdSchema,
  /** The `webhook-id` header: the same on every attempt and replay. */
  webhookId: z.string(),
  eventType: z.string(),
  incomingRequestId: IdSchema.nullable(),
  status: WebhookDeliveryStatusSchema,
  attempts: z.number().int(),
  maxAttempts: z.number().int(),
  lastAttemptAt: TimestampSchema.nullable(),
  /** HTTP status of the last response; null when none was received (network error, timeout). */
  lastResponseStatus: z.number().int().nullable(),
  lastError: z.string().nullable(),
  /** When the next attempt is due (pending deliveries only). */
  nextAttemptAt: TimestampSchema.nullable(),
  deliveredAt: TimestampSchema.nullable(),
  createdAt: TimestampSchema,
});
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;
export const WebhookDeliveryListSchema = z.array(WebhookDeliverySchema);

export const DeliveryIdParamsSchema = z.object({ id: IdSchema });
export const ListDeliveriesQuerySchema = z.object({
  status: WebhookDeliveryStatusSchema.optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

/** GET /api/webhook/pending-requests: one page, optionally one site's entries (issue 16). */
export const PendingRequestsQuerySchema = PageQuerySchema.extend({ siteId: IdSchema.optional() });
