import type { EntryWarning } from '@boomgate/contracts/entry-checks';

import type { FaceEvidence } from '@/modules/faces';

/**
 * The client's face verdict (spec §3 sends faceVerified and matchScore) is never stored: the
 * entry takes the server's evidence. A claim that evidence does not back is recorded as a warning
 * so the attempt to claim it is visible; a client saying less than the evidence is not.
 */
export function faceClaimWarnings(
  claim: { faceVerified: boolean; matchScore?: number | null },
  evidence: FaceEvidence | null,
): EntryWarning[] {
  const claimedScore = claim.matchScore ?? null;
  if (evidence === null) {
    if (!claim.faceVerified && claimedScore === null) return [];
    return [
      {
        code: 'face_claim_unbacked',
        severity: 'warning',
        message: `The client reported ${claim.faceVerified ? 'a verified face' : 'a face'}${
          claimedScore !== null ? ` (match ${claimedScore}%)` : ''
        } without a face comparison: the face is not verified.`,
        fields: claim.faceVerified ? ['faceVerified', 'matchScore'] : ['matchScore'],
      },
    ];
  }
  const overclaimsVerdict = claim.faceVerified && !evidence.faceVerified;
  const differentScore =
    claimedScore !== null && Math.abs(claimedScore - evidence.matchScore) > 0.05;
  if (!overclaimsVerdict && !differentScore) return [];
  return [
    {
      code: 'face_claim_contradicted',
      severity: 'warning',
      message: `The client reported ${claim.faceVerified ? 'a verified face' : 'a face'}${
        claimedScore !== null ? ` (match ${claimedScore}%)` : ''
      }; the server's comparison scored ${evidence.matchScore}% (${
        evidence.faceVerified ? 'verified' : 'not verified'
      }).`,
      fields: overclaimsVerdict ? ['faceVerified', 'matchScore'] : ['matchScore'],
    },
  ];
}
