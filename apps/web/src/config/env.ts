import { z } from 'zod';

const EnvSchema = z.object({
  /** Origin of the API. Empty means same origin: production serves the app from the API server. */
  VITE_API_ORIGIN: z.string().default(''),
});

const parsed = EnvSchema.parse(import.meta.env);

export const env = { API_ORIGIN: parsed.VITE_API_ORIGIN } as const;
