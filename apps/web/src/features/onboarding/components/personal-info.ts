import { z } from 'zod';

import { normalisePhone, PHONE_MESSAGE } from '@boomgate/contracts/phone';
import {
  checkSaIdNumber,
  SA_ID_NUMBER_LENGTH,
  SA_ID_NUMBER_MESSAGES,
} from '@boomgate/contracts/sa-id-number';

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
    .refine((value) => normalisePhone(value) !== null, { message: PHONE_MESSAGE }),
});

export type PersonalInfo = z.infer<typeof PersonalInfoSchema>;

/**
 * The schema's messages stay English (the spec's, shared with the server through contracts);
 * the screen shows each through the `onboarding` catalogue's `validation.<key>`.
 */
export const VALIDATION_MESSAGE_KEYS: Readonly<Record<string, string>> = {
  'Enter your first name.': 'firstNameRequired',
  'Enter your surname.': 'surnameRequired',
  'At most 120 characters.': 'tooLong',
  'Enter your ID number.': 'idNumberRequired',
  'Enter your phone number.': 'phoneRequired',
  [SA_ID_NUMBER_MESSAGES.digits]: 'idDigits',
  [SA_ID_NUMBER_MESSAGES.length]: 'idLength',
  [SA_ID_NUMBER_MESSAGES.date]: 'idDate',
  [SA_ID_NUMBER_MESSAGES.citizenship]: 'idCitizenship',
  [SA_ID_NUMBER_MESSAGES.checksum]: 'idChecksum',
  [PHONE_MESSAGE]: 'phoneFormat',
};

export const EMPTY_PERSONAL_INFO: PersonalInfo = { name: '', surname: '', idNumber: '', phone: '' };
