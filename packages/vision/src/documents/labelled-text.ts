/** Label → value lookup in OCR text of printed cards: the value follows the label on its line, or is the next line. */
export function findLabelledValue(text: string, label: RegExp): string | null {
  const lines = text.split(/\r?\n/).map((l) => l.trim());
  for (let i = 0; i < lines.length; i++) {
    const m = label.exec(lines[i]!);
    if (!m) continue;
    const rest = lines[i]!.slice(m.index + m[0].length)
      .replace(/^[\s:./\-|]+/, '')
      .trim();
    if (rest.length >= 1) return rest;
    const next = lines.slice(i + 1).find((l) => l.length > 0);
    if (next) return next;
  }
  return null;
}

/** Every date in the text (YYYY-MM-DD, YYYY/MM/DD, DD/MM/YYYY, DD.MM.YYYY, `01 JAN 1980`), as ISO dates. */
export function findDates(text: string): string[] {
  const out: string[] = [];
  const months = [
    'JAN',
    'FEB',
    'MAR',
    'APR',
    'MAY',
    'JUN',
    'JUL',
    'AUG',
    'SEP',
    'OCT',
    'NOV',
    'DEC',
  ];
  const valid = (y: number, m: number, d: number) =>
    y >= 1900 && y <= 2100 && m >= 1 && m <= 12 && d >= 1 && d <= 31;
  const push = (y: number, m: number, d: number) => {
    if (valid(y, m, d))
      out.push(`${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`);
  };
  for (const m of text.matchAll(/\b(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})\b/g))
    push(+m[1]!, +m[2]!, +m[3]!);
  for (const m of text.matchAll(/\b(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})\b/g))
    push(+m[3]!, +m[2]!, +m[1]!);
  for (const m of text.matchAll(/\b(\d{1,2})\s+([A-Za-z]{3})[A-Za-z]*\s+(\d{4})\b/g)) {
    const month = months.indexOf(m[2]!.toUpperCase()) + 1;
    if (month > 0) push(+m[3]!, month, +m[1]!);
  }
  return out;
}
