import { z } from 'zod';

/** Spec §5: upper case, every non-alphanumeric removed. The form used for every lookup. */
export function normalisePlate(text: string): string {
  return text.toUpperCase().replace(/[^A-Z0-9]/g, '');
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
