import { z } from 'zod';

/**
 * zod 4 compiles a fast parser for each object schema with `new Function`, and probes whether it
 * may when the first object schema is built. The server's CSP has no 'unsafe-eval', so the probe
 * was blocked and reported (a csp-report POST on every page load). Jitless, zod interprets the
 * schema instead and never probes. main.tsx imports this module first, before any schema exists;
 * the e2e Incoming Feed flow checks that no page reports a violation.
 */
z.config({ jitless: true });
