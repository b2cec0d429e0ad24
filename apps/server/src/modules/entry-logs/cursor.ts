/** Opaque page cursors: base64url of "<ISO timestamp>|<uuid>". */
export function encodeCursor(cursor: { timestamp: Date; id: string }): string {
  return Buffer.from(`${cursor.timestamp.toISOString()}|${cursor.id}`).toString('base64url');
}

export function decodeCursor(value: string): { timestamp: Date; id: string } | undefined {
  const [iso, id] = Buffer.from(value, 'base64url').toString('utf8').split('|');
  const timestamp = new Date(iso ?? '');
  if (Number.isNaN(timestamp.getTime()) || !id || !/^[0-9a-f-]{36}$/.test(id)) return undefined;
  return { timestamp, id };
}
