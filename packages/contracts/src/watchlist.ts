import { z } from 'zod';

import { IdSchema, TimestampSchema } from './primitives';

/**
 * Issue 21: a tenant's watchlist (never shared across tenants: POPIA s57). An entry names a plate,
 * a driver's ID number or a transport company. A `block` hit refuses the gate's decision
 * (`refusalReason: 'watchlist'`); an `alert` hit grants with a warning. A covert entry shows the
 * guard only "Manual check required" (block) or nothing (alert).
 */
export const WATCHLIST_KINDS = ['plate', 'idNumber', 'company'] as const;
export const WatchlistKindSchema = z.enum(WATCHLIST_KINDS);
export type WatchlistKind = z.infer<typeof WatchlistKindSchema>;

export const WatchlistSeveritySchema = z.enum(['block', 'alert']);
export type WatchlistSeverity = z.infer<typeof WatchlistSeveritySchema>;

/** What a guard sees of a covert block. */
export const COVERT_BLOCK_MESSAGE = 'Manual check required';

const Value = z
  .string()
  .trim()
  .min(2, 'Enter at least 2 characters')
  .max(200, 'At most 200 characters');
const Reason = z
  .string()
  .trim()
  .min(1, 'Say why the entry is on the watchlist')
  .max(500, 'At most 500 characters');

export const CreateWatchlistEntrySchema = z
  .object({
    kind: WatchlistKindSchema,
    value: Value,
    reason: Reason,
    severity: WatchlistSeveritySchema,
    covert: z.boolean().default(false),
    /** When the entry stops matching; omitted or null: never. */
    expiresAt: TimestampSchema.nullish(),
  })
  .strict();
export type CreateWatchlistEntry = z.input<typeof CreateWatchlistEntrySchema>;

/** PATCH: any of the fields but the kind (a different kind is a different entry). */
export const UpdateWatchlistEntrySchema = z
  .object({
    value: Value.optional(),
    reason: Reason.optional(),
    severity: WatchlistSeveritySchema.optional(),
    covert: z.boolean().optional(),
    expiresAt: TimestampSchema.nullable().optional(),
  })
  .strict()
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: 'Change at least one field',
  });
export type UpdateWatchlistEntry = z.input<typeof UpdateWatchlistEntrySchema>;

export const WatchlistEntrySchema = z.object({
  id: IdSchema,
  kind: WatchlistKindSchema,
  value: z.string(),
  reason: z.string(),
  severity: WatchlistSeveritySchema,
  covert: z.boolean(),
  expiresAt: TimestampSchema.nullable(),
  /** False once `expiresAt` has passed: the entry no longer matches. */
  isActive: z.boolean(),
  createdAt: TimestampSchema,
  createdBy: z.object({ id: IdSchema.nullable(), name: z.string().nullable() }),
  updatedAt: TimestampSchema,
});
export type WatchlistEntry = z.infer<typeof WatchlistEntrySchema>;

export const WatchlistSchema = z.array(WatchlistEntrySchema);

export const WatchlistEntryParamsSchema = z.object({ id: IdSchema });

/**
 * The match key: how a value is compared. Plates as spec §5 stores them (upper case, letters and
 * digits only); ID numbers by their letters and digits; companies case- and punctuation-blind.
 */
export function watchlistMatchKey(kind: WatchlistKind, value: string): string {
  switch (kind) {
    case 'plate':
    case 'idNumber':
      return value.toUpperCase().replace(/[^A-Z0-9]/g, '');
    case 'company':
      return value
        .toLowerCase()
        .normalize('NFKD')
        .replace(/[\u0300-\u036f]/g, '')
        .replace(/[^a-z0-9]+/g, ' ')
        .trim();
  }
}
