import { open, readdir } from 'node:fs/promises';
import path from 'node:path';

import { passesLuhn } from '@boomgate/contracts/sa-id-number';

/**
 * Issue 26's proof that personal data is sealed at rest, shared by the catalog test
 * (sealed-at-rest.int.test.ts) and the step closing the end-to-end run (apps/web/e2e, through
 * `npm run scan:plaintext`, cli/scan-plaintext.ts): every text-like column of every table (the
 * app's and the job queue's) is searched for plaintext ID numbers (checksum-valid 13-digit runs)
 * and MRZ-shaped passport lines, and every object of a storage folder for a file stored as
 * uploaded (an image, a PDF or a video rather than a sealed BGS1 object).
 */

/** Runs SQL as the schema owner (RLS does not hide another tenant's rows from it). */
export type OwnerQuery = <Row extends Record<string, unknown>>(
  text: string,
  values?: unknown[],
) => Promise<Row[]>;

const THIRTEEN_DIGITS = /(?<!\d)\d{13}(?!\d)/g;
/** Line 2 of a passport's MRZ: number, check digit, nationality, birth date, sex, expiry. */
const MRZ_LINE = /[A-Z0-9<]{9}\d[A-Z<]{3}\d{6}\d[MF<]\d{6}\d/;
/** PostgreSQL's prefilter (a superset of both shapes), so only candidate values leave the database. */
const CANDIDATE = '[0-9]{13}|[0-9]{6}[0-9][MF<][0-9]{6}';
const SCHEMAS = ['public', 'graphile_worker', 'graphile_worker_private'];
/** The walk is not vacuous: the catalog lists the tables every run writes to. */
const EXPECTED_TABLES = [
  'public.entry_logs',
  'public.audit_events',
  'graphile_worker._private_jobs',
];

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Ids and digests written in hex (a callback's `msg_` + 32 hex, a keyed hash's 64): about one in
 * 1,700 holds a 13-digit run that passes the ID checksum by chance. A run inside a hex token this
 * long is part of the token, not a number someone stored.
 */
const HEX_TOKEN_LENGTH = 32;
const isHex = (char: string | undefined) => char !== undefined && /[0-9a-f]/i.test(char);
function insideHexToken(value: string, start: number, end: number): boolean {
  let from = start;
  let to = end;
  while (isHex(value[from - 1])) from--;
  while (isHex(value[to])) to++;
  return to - from >= HEX_TOKEN_LENGTH;
}

/** Whether a stored text holds a plaintext number: an SA ID, an MRZ line 2, or a canary. */
export function holdsPlaintextNumber(value: string, canaries: readonly string[] = []): boolean {
  const ids = [...value.matchAll(THIRTEEN_DIGITS)].filter(
    (run) => !insideHexToken(value, run.index, run.index + run[0].length),
  );
  return (
    ids.some(([run]) => passesLuhn(run)) ||
    MRZ_LINE.test(value) ||
    canaries.some((canary) => value.includes(canary))
  );
}

/**
 * Every column (`schema.table.column`) of every table holding a plaintext number: a
 * checksum-valid 13-digit run, an MRZ line 2, or one of `canaries` (numbers a caller wrote,
 * passport numbers among them, which have no shape of their own).
 */
export async function findPlaintextNumbers(
  query: OwnerQuery,
  { canaries = [] }: { canaries?: readonly string[] } = {},
): Promise<Set<string>> {
  const columns = await query<{ schema: string; table: string; column: string }>(
    `select c.table_schema as schema, c.table_name as table, c.column_name as column
     from information_schema.columns c
     join information_schema.tables tb
       on tb.table_schema = c.table_schema and tb.table_name = c.table_name
      and tb.table_type = 'BASE TABLE'
     where c.table_schema = any($1::text[])
       and c.data_type in ('text', 'character varying', 'character', 'json', 'jsonb', 'ARRAY')
     order by 1, 2, 3`,
    [SCHEMAS],
  );
  const tables = new Set(columns.map((c) => `${c.schema}.${c.table}`));
  for (const table of EXPECTED_TABLES)
    if (!tables.has(table)) throw new Error(`the catalog does not list ${table}`);
  const pattern = [CANDIDATE, ...canaries.map(escapeRegex)].join('|');
  const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
  const found = new Set<string>();
  for (const { schema, table, column } of columns) {
    const rows = await query<{ value: string }>(
      `select ${quote(column)}::text as value from ${quote(schema)}.${quote(table)}
        where ${quote(column)}::text ~ $1`,
      [pattern],
    );
    if (rows.some(({ value }) => holdsPlaintextNumber(value, canaries)))
      found.add(`${schema}.${table}.${column}`);
  }
  return found;
}

/** The format an object's first bytes announce, when it is one stored as uploaded. */
export function unsealedMagic(bytes: Uint8Array): string | null {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (head.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))) return 'jpeg';
  if (head.subarray(0, 8).equals(Buffer.from('89504e470d0a1a0a', 'hex'))) return 'png';
  if (head.subarray(0, 4).toString('latin1') === '%PDF') return 'pdf';
  if (head.subarray(0, 4).toString('latin1') === 'RIFF') return 'webp';
  if (head.subarray(4, 8).toString('latin1') === 'ftyp') return 'mp4';
  if (head.subarray(0, 4).equals(Buffer.from('1a45dfa3', 'hex'))) return 'webm';
  return null;
}

/**
 * Every object of a storage folder (recursively) stored as uploaded, as `key (format)`; `objects`
 * counts the files read. A folder that does not exist holds nothing. (A sealed object starts with
 * its BGS1 header, which no format above shares.)
 */
export async function findUnsealedObjects(
  storageDir: string,
): Promise<{ objects: number; unsealed: string[] }> {
  const entries = await readdir(storageDir, { recursive: true, withFileTypes: true }).catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    },
  );
  const unsealed: string[] = [];
  let objects = 0;
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const handle = await open(file, 'r');
    try {
      const head = Buffer.alloc(16);
      const { bytesRead } = await handle.read(head, 0, head.length, 0);
      objects++;
      const format = unsealedMagic(head.subarray(0, bytesRead));
      if (format) unsealed.push(`${path.relative(storageDir, file)} (${format})`);
    } finally {
      await handle.close();
    }
  }
  return { objects, unsealed: unsealed.sort() };
}
