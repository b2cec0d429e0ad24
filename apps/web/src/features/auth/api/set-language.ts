import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';

import type { AuthResponse } from '@boomgate/contracts/auth';
import type { LanguageCode } from '@boomgate/contracts/preferences';

import { request } from '@/lib/api-client';
import { changeLanguage, i18next, isSupportedLanguage } from '@/lib/i18n';

import { authKeys } from './get-session';

/** PATCH /api/auth/preferences: the language follows the user to every device. */
export function useSetLanguage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (language: LanguageCode) => {
      // The contract (zod) loads with the first save, not with the shell (see get-session.ts).
      const { PreferencesSchema } = await import('@boomgate/contracts/preferences');
      return request('PATCH', '/api/auth/preferences', {
        schema: PreferencesSchema,
        body: { language },
      });
    },
    onSuccess: ({ language }) => {
      queryClient.setQueryData<AuthResponse | null>(authKeys.session(), (session) =>
        session ? { ...session, user: { ...session.user, language } } : session,
      );
    },
  });
}

/**
 * The signed-in shell's side of issue 19. The account's language wins over this device's (a guard
 * who chose isiZulu on one phone gets it on the next); an account that never chose one takes the
 * language this device speaks when it is not English (e.g. picked on the login screen). Returns
 * the header picker's `onChanged`, which saves a new choice on the account.
 */
export function useAccountLanguage(session: AuthResponse): (language: string) => void {
  const { mutate } = useSetLanguage();
  const saved = session.user.language ?? null;

  useEffect(() => {
    if (saved && isSupportedLanguage(saved)) {
      if (i18next.language !== saved) void changeLanguage(saved);
      return;
    }
    const onDevice = i18next.language;
    if (!saved && isSupportedLanguage(onDevice) && onDevice !== 'en') {
      mutate(onDevice as LanguageCode);
    }
  }, [saved, mutate]);

  return useCallback(
    (language: string) => {
      // The pickers offer only languages with a catalogue, each one the contract lists.
      if (isSupportedLanguage(language) && language !== saved) mutate(language as LanguageCode);
    },
    [saved, mutate],
  );
}
