/**
 * One HTTP byte range (RFC 9110 §14.1.2), which is all a browser's video element asks for:
 * `bytes=start-`, `bytes=start-end` or `bytes=-suffix`. Several ranges or anything malformed are
 * ignored (the whole file is sent, as the RFC allows); a range past the end is unsatisfiable.
 */
export function parseByteRange(
  header: string | undefined,
  size: number,
): { start: number; end: number; openEnded: boolean } | 'unsatisfiable' | undefined {
  if (!header) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return undefined;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return undefined;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1, openEnded: false };
  }
  const start = Number(first);
  if (start >= size) return 'unsatisfiable';
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (end < start) return undefined;
  return { start, end, openEnded: last === '' };
}
