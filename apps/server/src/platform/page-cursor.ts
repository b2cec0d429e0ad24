import type { FastifyReply } from 'fastify';

import { NEXT_CURSOR_HEADER } from '@boomgate/contracts/primitives';

import { AppError } from './errors';

/** Keyset pages, newest first, on (timestamp, id): deep pages stay index range scans. */
export type PageCursor = { timestamp: Date; id: string };

/** Opaque page cursors: base64url of "<ISO timestamp>|<uuid>". */
export function encodeCursor(cursor: PageCursor): string {
  return Buffer.from(`${cursor.timestamp.toISOString()}|${cursor.id}`).toString('base64url');
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function decodeCursor(value: string): PageCursor | undefined {
  const [iso, id] = Buffer.from(value, 'base64url').toString('utf8').split('|');
  const timestamp = new Date(iso ?? '');
  const year = timestamp.getUTCFullYear();
  // Only what encodeCursor makes: anything else is "not valid", never a database error.
  if (Number.isNaN(year) || year < 1 || year > 9999 || !id || !UUID.test(id)) return undefined;
  return { timestamp, id };
}

/** The `cursor` query parameter: none for the first page; a 400 when it is not one of ours. */
export function readPageCursor(cursor: string | undefined): PageCursor | undefined {
  if (cursor === undefined) return undefined;
  const after = decodeCursor(cursor);
  if (!after) throw new AppError('INVALID', 'The page cursor is not valid.');
  return after;
}

/** A page from rows fetched with `limit + 1`: the extra row only says that a next page exists. */
export function toPage<T extends PageCursor>(rows: T[], limit: number) {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { rows: page, nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
}

/**
 * A page's response headers: the next page's cursor when there is one, and counts over every row
 * (the cards of the truck list and the feed) under the header names the contracts give them.
 */
export function setPageHeaders<Key extends string>(
  reply: FastifyReply,
  nextCursor: string | null,
  counts?: { headers: Record<Key, string>; values: Record<Key, number> },
) {
  if (nextCursor) void reply.header(NEXT_CURSOR_HEADER, nextCursor);
  if (!counts) return;
  for (const key of Object.keys(counts.headers) as Key[])
    void reply.header(counts.headers[key], String(counts.values[key]));
}
