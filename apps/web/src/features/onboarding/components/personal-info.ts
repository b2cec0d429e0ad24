import { z } from 'zod';

import { checkSaIdNumber, SA_ID_NUMBER_LENGTH, SA_ID_NUMBER_MESSAGES } from './sa-id-number';

/** A South African phone number: 0XX XXX XXXX or +27 XX XXX XXXX (spaces, dashes allowed). */
export function normalisePhone(value: string): string | null {
  const compact = value.replace(/[\s\-()]/g, '');
  if (/^0\d{9}$/.test(compact)) return compact;
  const international = /^(?:\+|00)?27(\d{9})$/.exec(compact);
  return international ? `0${international[1]}` : null;
}

/** Step 1 of self onboarding (spec §4): name, surname, SA ID number (spec §5: 13) and phone. */
export const PersonalInfoSchema = z.object({
  name: z.string().trim().min(1, 'Enter your first name.').max(120, 'At most 120 characters.'),
  surname: z.string().trim().min(1, 'Enter your surname.').max(120, 'At most 120 characters.'),
  idNumber: z
    .string()
    .trim()
    .min(1, 'Enter your ID number.')
    .max(SA_ID_NUMBER_LENGTH, SA_ID_NUMBER_MESSAGES.length)
    .superRefine((value, context) => {
      const problem = checkSaIdNumber(value);
      if (problem) context.addIssue({ code: 'custom', message: SA_ID_NUMBER_MESSAGES[problem] });
    }),
  phone: z
    .string()
    .trim()
    .min(1, 'Enter your phone number.')
    .refine((value) => normalisePhone(value) !== null, {
      message: 'Enter a South African number, e.g. 082 123 4567 or +27 82 123 4567.',
    }),
});

export type PersonalInfo = z.infer<typeof PersonalInfoSchema>;

export const EMPTY_PERSONAL_INFO: PersonalInfo = { name: '', surname: '', idNumber: '', phone: '' };
