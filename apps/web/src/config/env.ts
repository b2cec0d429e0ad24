// Read without zod: this module is part of the first code the browser runs, which loads no schema
// library (main.tsx). Vite replaces import.meta.env.VITE_API_ORIGIN at build time.
const apiOrigin: unknown = import.meta.env.VITE_API_ORIGIN;

export const env = {
  /** Origin of the API. Empty means same origin: production serves the app from the API server. */
  API_ORIGIN: typeof apiOrigin === 'string' ? apiOrigin : '',
} as const;
