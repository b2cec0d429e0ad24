import { formatPlate, normalisePlate } from '@boomgate/contracts/plates';

// The one plate normaliser and display formatter (spec §5) are the contracts' (issue 14).
export { formatPlate, normalisePlate };

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
