import { z } from 'zod';

import { IdSchema, TimestampSchema } from './primitives';

/**
 * Issue 18: a guard's phone or tablet, as the server knows it. The app generates `deviceId` once
 * (kept with its offline store) and reports in with POST /api/devices/contact whenever the server
 * answers; an admin revokes a lost device, which then gets 403 DEVICE_REVOKED and wipes its queue
 * and cached data.
 */
export const DeviceContactBodySchema = z
  .object({
    deviceId: IdSchema,
    /** What the device calls itself (the browser and platform), for the admin's list. */
    label: z.string().trim().min(1).max(120).optional(),
  })
  .strict();
export type DeviceContactBody = z.input<typeof DeviceContactBodySchema>;

export const GuardDeviceSchema = z.object({
  id: IdSchema,
  deviceId: IdSchema,
  label: z.string().nullable(),
  /** The user signed in at the last contact. */
  lastUser: z.object({ id: IdSchema, name: z.string().nullable() }).nullable(),
  firstSeenAt: TimestampSchema,
  lastContactAt: TimestampSchema,
  revokedAt: TimestampSchema.nullable(),
  revokedBy: z.object({ id: IdSchema.nullable(), name: z.string().nullable() }).nullable(),
});
export type GuardDevice = z.infer<typeof GuardDeviceSchema>;

export const GuardDeviceListSchema = z.array(GuardDeviceSchema);

export const DeviceParamsSchema = z.object({ id: IdSchema });
