import { z } from 'zod';

import { IdSchema, PageQuerySchema, TimestampSchema } from './primitives';

/** One event of the append-only audit trail, as the audit viewer shows it. */
export const AuditEventSchema = z.object({
  id: IdSchema,
  occurredAt: TimestampSchema,
  actorUserId: IdSchema.nullable(),
  /** The actor's name at read time (full name, else username); null for the system or a deleted user. */
  actorName: z.string().nullable(),
  action: z.string(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  ip: z.string().nullable(),
  details: z.record(z.string(), z.unknown()).nullable(),
});
export type AuditEvent = z.infer<typeof AuditEventSchema>;
export const AuditEventListSchema = z.array(AuditEventSchema);

/** A calendar day at the site (SAST), both ends of a range inclusive. */
const DaySchema = z.iso.date();

/**
 * The audit viewer's filters (all optional, combined with AND). `action` matches an action or,
 * ending in `.`, every action under that prefix (`entry.` finds entry.granted and entry.refused).
 */
const AuditEventFilterFields = z.object({
  actorUserId: IdSchema.optional(),
  action: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .regex(/^[a-z0-9_.-]+$/, 'An action is lower-case letters, digits, dots, dashes or _.')
    .optional(),
  targetType: z
    .string()
    .trim()
    .min(1)
    .max(60)
    .regex(/^[a-z0-9_-]+$/, 'A target type is lower-case letters, digits, dashes or _.')
    .optional(),
  targetId: z.string().trim().min(1).max(200).optional(),
  from: DaySchema.optional(),
  to: DaySchema.optional(),
});
export type AuditEventFilters = z.infer<typeof AuditEventFilterFields>;

const rangeInOrder = {
  check: (filters: AuditEventFilters) => !filters.from || !filters.to || filters.from <= filters.to,
  message: { message: 'The range must start on or before its last day.', path: ['to'] },
};

export const AuditEventFiltersSchema = AuditEventFilterFields.refine(
  rangeInOrder.check,
  rangeInOrder.message,
);

export const ListAuditEventsQuerySchema = AuditEventFilterFields.extend(
  PageQuerySchema.shape,
).refine(rangeInOrder.check, rangeInOrder.message);
export type ListAuditEventsQuery = z.infer<typeof ListAuditEventsQuerySchema>;

export const ExportAuditEventsQuerySchema = AuditEventFilterFields.extend({
  format: z.literal('csv').default('csv'),
}).refine(rangeInOrder.check, rangeInOrder.message);

/** At most this many events in one export of the filtered view (a narrower filter gets the rest). */
export const AUDIT_EXPORT_MAX_ROWS = 100_000;
