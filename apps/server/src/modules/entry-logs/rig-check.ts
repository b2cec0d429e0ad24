import type { Trailer } from '@boomgate/contracts/approved-vehicles';
import type { EntryWarning, RuleOutcome } from '@boomgate/contracts/entry-checks';
import { normalisePlate } from '@boomgate/contracts/plates';

import { parseDocumentDate } from './entry-rules';

export const RIG_SOURCE = 'rig';

export type RigCheckInput = {
  /** The approved vehicle's trailers; null when the plate is not on the register. */
  rig: readonly Trailer[] | null;
  /** The trailer plates presented with the truck-tractor (grant-entry's `trailerPlates`). */
  trailerPlates: readonly string[];
  /**
   * The trailers' licence discs the entry cites (`trailerLicenceDiscIds`), as read: each must be a
   * trailer presented and in date, whether or not the truck-tractor is on the register.
   */
  trailerDiscs?: readonly { plate: string | null; dateOfExpiry: string | null }[];
  /** The cited weighbridge ticket's trailer registrations, as written; null without a ticket. */
  ticketTrailerRegs: string | null;
  /** The site's calendar day, YYYY-MM-DD: a disc is valid through its expiry day. */
  today: string;
};

/** Registrations as a ticket lists them: "ABC 123 GP, DEF456GP / GHI789GP". */
const registrations = (text: string | null) =>
  (text ?? '')
    .split(/[,;/\n]+/)
    .map(normalisePlate)
    .filter((plate) => plate.length >= 2);

/**
 * Issue 21, pure: a rig passes only when every trailer presented is on the approved vehicle's rig
 * and its disc has not expired (`block`, refusalReason `rig_mismatch`); a ticket naming a
 * trailer the rig does not have warns. An unregistered truck-tractor has no rig to check against
 * (the register refuses it already).
 */
export function checkRig({
  rig,
  trailerPlates,
  trailerDiscs = [],
  ticketTrailerRegs,
  today,
}: RigCheckInput): RuleOutcome[] {
  const outcomes = checkTrailerDiscs(trailerDiscs, trailerPlates, today);
  if (rig === null) return outcomes;
  const byPlate = new Map(rig.map((trailer) => [normalisePlate(trailer.plateNumber), trailer]));
  for (const plate of trailerPlates.map(normalisePlate)) {
    const trailer = byPlate.get(plate);
    if (!trailer) {
      outcomes.push({
        source: RIG_SOURCE,
        verdict: 'block',
        refusalReason: 'rig_mismatch',
        code: 'trailer_not_on_rig',
        message: `Trailer ${plate} is not on this vehicle's rig.`,
      });
    } else if (trailer.discExpiry && trailer.discExpiry < today) {
      outcomes.push({
        source: RIG_SOURCE,
        verdict: 'block',
        refusalReason: 'rig_mismatch',
        code: 'trailer_disc_expired',
        message: `Trailer ${plate}'s licence disc expired on ${trailer.discExpiry}.`,
      });
    }
  }
  for (const plate of registrations(ticketTrailerRegs)) {
    if (!byPlate.has(plate))
      outcomes.push({
        source: RIG_SOURCE,
        verdict: 'warn',
        refusalReason: 'rig_mismatch',
        code: 'ticket_trailer_unknown',
        message: `The weighbridge ticket names trailer ${plate}, which is not on this vehicle's rig.`,
      });
  }
  return outcomes;
}

/**
 * Issue 21, pure: each cited trailer disc belongs to a trailer presented with the rig (its
 * "Licence no." is the trailer's plate) and has not expired; an unreadable registration or
 * expiry date is not a pass (never silently wrong). Each failure blocks (`rig_mismatch`).
 */
export function checkTrailerDiscs(
  discs: readonly { plate: string | null; dateOfExpiry: string | null }[],
  trailerPlates: readonly string[],
  today: string,
): RuleOutcome[] {
  const presented = new Set(trailerPlates.map(normalisePlate));
  const outcomes: RuleOutcome[] = [];
  const block = (code: string, message: string) =>
    outcomes.push({
      source: RIG_SOURCE,
      verdict: 'block',
      refusalReason: 'rig_mismatch',
      code,
      message,
    });
  discs.forEach((disc, index) => {
    const plate = disc.plate ? normalisePlate(disc.plate) : '';
    const label = plate ? `Trailer disc ${plate}` : `Trailer disc ${index + 1}`;
    if (!plate) block('trailer_disc_unreadable', `${label}: the registration cannot be read.`);
    else if (!presented.has(plate))
      block(
        'trailer_disc_not_presented',
        `${label} is not for a trailer presented with this vehicle.`,
      );
    const expiry = parseDocumentDate(disc.dateOfExpiry);
    if (!expiry) block('trailer_disc_unreadable', `${label}: the expiry date cannot be read.`);
    else if (expiry < today) block('trailer_disc_expired', `${label} expired on ${expiry}.`);
  });
  return outcomes;
}

export function rigWarnings(outcomes: readonly RuleOutcome[]): EntryWarning[] {
  return outcomes
    .filter((outcome) => outcome.source === RIG_SOURCE)
    .map((outcome) => ({
      code: 'rig_check' as const,
      severity: outcome.verdict === 'block' ? ('critical' as const) : ('warning' as const),
      message: outcome.message,
      fields:
        outcome.code === 'ticket_trailer_unknown'
          ? ['weighbridgeTicket.trailerRegs']
          : outcome.code.startsWith('trailer_disc_') && outcome.code !== 'trailer_disc_expired'
            ? ['trailerLicenceDiscIds']
            : ['trailerPlates'],
    }));
}
