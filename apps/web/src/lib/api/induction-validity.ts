import { useQuery } from '@tanstack/react-query';

import { InductionValiditySchema } from '@boomgate/contracts/induction';

import { request } from '@/lib/api-client';

/** The server's form of an ID number (letters and digits, upper case). */
const normalise = (idNumber: string | null | undefined) =>
  (idNumber ?? '').replace(/[^0-9A-Za-z]/g, '').toUpperCase();

/**
 * A driver's safety induction at the gate (issue 7): valid, expired or none, by ID number. Shared by
 * the gate screens, which show it as a warning, never as a reason to refuse entry.
 */
export function useInductionValidity(idNumber: string | null | undefined) {
  const normalised = normalise(idNumber);
  return useQuery({
    queryKey: ['/api/induction/status', normalised],
    queryFn: ({ signal }) =>
      request('GET', '/api/induction/status', {
        schema: InductionValiditySchema,
        query: { idNumber: normalised },
        signal,
      }),
    enabled: normalised.length > 0 && normalised.length <= 13,
  });
}
