import { z } from 'zod';

import { IdSchema, TimestampSchema } from './primitives';

export const TruckListEntrySchema = z.object({
  id: IdSchema,
  timestamp: TimestampSchema,
  truckNumber: z.string().nullable(),
  plateNumber: z.string(),
  /** 'contracted' when the plate is an approved vehicle, else 'other'. */
  category: z.enum(['contracted', 'other']),
  transportName: z.string().nullable(),
});
export type TruckListEntry = z.infer<typeof TruckListEntrySchema>;
export const TruckListSchema = z.array(TruckListEntrySchema);
