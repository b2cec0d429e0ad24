import { z } from 'zod';

/**
 * Spec §5: upper case, every non-alphanumeric removed. The form used for every lookup and stored
 * on every record. The one plate normaliser: server, web and vision use this one.
 */
export function normalisePlate(text: string): string {
  return text.toUpperCase().replace(/[^A-Z0-9]/g, '');
}

/** South African province codes that end a plate ('KP 35 XK GP', 'BCD 123 MP', 'ND 123-456' → 'ND 123 456'). */
export const PROVINCE_SUFFIXES = ['GP', 'ZN', 'EC', 'FS', 'MP', 'NC', 'NW', 'WC', 'WP', 'NA', 'L'];

/**
 * Spec §5 display form, the one formatter: a plate of 6 or more letters and digits is shown in
 * space-separated groups of letters and digits, with the province code apart ('KP35XKGP' →
 * 'KP 35 XK GP', 'BCD123MP' → 'BCD 123 MP'); a town plate's six digits in two groups of three
 * ('CA123456' → 'CA 123 456'). Shorter plates are shown as they are stored.
 */
export function formatPlate(plate: string): string {
  const stripped = normalisePlate(plate);
  if (stripped.length < 6) return stripped;
  const town = /^([CN][A-Z]{0,2})(\d{1,6})$/.exec(stripped);
  if (town) {
    const [, letters = '', digits = ''] = town;
    return digits.length === 6
      ? `${letters} ${digits.slice(0, 3)} ${digits.slice(3)}`
      : `${letters} ${digits}`;
  }
  const groups = stripped.match(/[A-Z]+|\d+/g) ?? [stripped];
  const last = groups[groups.length - 1] ?? '';
  const suffix = PROVINCE_SUFFIXES.find((code) => last.endsWith(code) && last.length > code.length);
  if (suffix && groups.length > 1) {
    groups.splice(groups.length - 1, 1, last.slice(0, -suffix.length), suffix);
  }
  return groups.join(' ');
}

export const PlateNumberSchema = z
  .string()
  .max(40)
  .transform(normalisePlate)
  .pipe(
    z
      .string()
      .min(2, 'Plate number must have at least 2 letters or digits')
      .max(10, 'Plate number must have at most 10 letters or digits'),
  );
