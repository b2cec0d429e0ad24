import type { ExitMismatch } from '@boomgate/contracts/visits';

/** A weighbridge ticket's side of a gate event: its number, seals and the vehicle it names. */
export type TicketFacts = {
  ticketNumber: string | null;
  sealNumbers: readonly string[];
  vehicleReg: string | null;
};

/** Seal and ticket numbers compare without case, spaces or separators ("AB-123 " = "ab123"). */
const token = (value: string) => value.toUpperCase().replace(/[^A-Z0-9]/g, '');

/** "S1, S2; S3" or ["S1", "S2"] → the seal numbers, in order, without blanks. */
export function splitSeals(value: string | readonly string[] | null | undefined): string[] {
  if (!value) return [];
  const parts = typeof value === 'string' ? value.split(/[,;\n]/) : value;
  return parts.map((part) => part.trim()).filter((part) => part.length > 0);
}

const sameSet = (a: readonly string[], b: readonly string[]) => {
  const left = new Set(a.map(token));
  const right = new Set(b.map(token));
  return left.size === right.size && [...left].every((seal) => right.has(seal));
};

/**
 * The exit's ticket and seals against the entry's. Only what both sides state is compared: a
 * side without seals or a ticket number is not a mismatch (the guard may not have captured it),
 * so an empty list means "nothing disagrees", not "everything was checked".
 */
export function exitMismatches(
  entry: TicketFacts | null,
  exit: TicketFacts,
  plateNumber: string | null,
): ExitMismatch[] {
  const found: ExitMismatch[] = [];
  if (entry && entry.sealNumbers.length > 0 && exit.sealNumbers.length > 0) {
    if (!sameSet(entry.sealNumbers, exit.sealNumbers))
      found.push({
        code: 'seal_mismatch',
        entry: entry.sealNumbers.join(', '),
        exit: exit.sealNumbers.join(', '),
        message: 'The seal numbers at the exit differ from those recorded at the entry.',
      });
  }
  if (
    entry?.ticketNumber &&
    exit.ticketNumber &&
    token(entry.ticketNumber) !== token(exit.ticketNumber)
  )
    found.push({
      code: 'ticket_number_mismatch',
      entry: entry.ticketNumber,
      exit: exit.ticketNumber,
      message: "The exit's weighbridge ticket is not the entry's ticket.",
    });
  if (plateNumber && exit.vehicleReg && token(plateNumber) !== token(exit.vehicleReg))
    found.push({
      code: 'ticket_vehicle_mismatch',
      entry: plateNumber,
      exit: exit.vehicleReg,
      message: "The exit's weighbridge ticket names another vehicle.",
    });
  return found;
}
