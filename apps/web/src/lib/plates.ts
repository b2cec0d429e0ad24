import { normalisePlate } from '@boomgate/contracts/plates';

export { normalisePlate };

/**
 * Spec §5: the first match of either 1-3 letters, 1-3 digits and two groups of 1-3 letters
 * (e.g. 'KP 35 XK GP'), or 5-10 letters and digits (e.g. 'CA 123-456' once joined). The second
 * form must mix letters and digits, so words on the plate ('GAUTENG') are not taken for it.
 */
const PLATE_IN_TEXT =
  /\b[A-Z]{1,3}[\s-]?\d{1,3}[\s-]?[A-Z]{1,3}[\s-]?[A-Z]{1,3}\b|\b(?=[A-Z0-9]*\d)(?=[A-Z0-9]*[A-Z])[A-Z0-9]{5,10}\b/;

/** The plate in free OCR text, normalised for lookup (upper case, letters and digits only). */
export function plateFromText(text: string): string | null {
  const upper = text.toUpperCase();
  const match = PLATE_IN_TEXT.exec(upper) ?? PLATE_IN_TEXT.exec(upper.replace(/[\s-]+/g, ''));
  return match ? normalisePlate(match[0]) : null;
}

function chunks(run: string, size: number): string[] {
  const parts: string[] = [];
  for (let i = 0; i < run.length; i += size) parts.push(run.slice(i, i + size));
  return parts;
}

/**
 * Spec §5 display form: a plate of 6 or more letters and digits is shown in groups of letters and
 * digits, a trailing four-letter group split in two ('KP35XKGP' → 'KP 35 XK GP',
 * 'CA123456' → 'CA 123 456'). Shorter plates are shown as they are stored.
 */
export function formatPlate(plate: string): string {
  const stripped = normalisePlate(plate);
  if (stripped.length < 6) return stripped;
  const runs = stripped.match(/[A-Z]+|\d+/g) ?? [];
  return runs
    .flatMap((run) => {
      if (/^\d+$/.test(run)) return run.length > 3 ? chunks(run, 3) : [run];
      if (run.length === 4) return [run.slice(0, 2), run.slice(2)];
      return run.length > 4 ? chunks(run, 3) : [run];
    })
    .join(' ');
}
