import type { FieldErrors, FieldValues } from 'react-hook-form';

/** The first message among a form's errors, in field order, for the validation toast. */
export function firstErrorMessage<T extends FieldValues>(
  errors: FieldErrors<T>,
): string | undefined {
  for (const error of Object.values(errors)) {
    if (
      error &&
      typeof error === 'object' &&
      'message' in error &&
      typeof error.message === 'string'
    ) {
      return error.message;
    }
  }
  return undefined;
}
