/**
 * Whether an approval lets the vehicle in on `today` (YYYY-MM-DD in the site's time zone): it must
 * be confirmed (not a pending proposal), switched on, and an approvedUntil date lasts through that
 * whole day.
 */
export function approvalStatus(
  vehicle:
    { isActive: boolean; approvedUntil: string | null; proposal?: string | null } | undefined,
  today: string,
): 'approved' | 'not_registered' | 'inactive' | 'expired' | 'pending_approval' {
  if (!vehicle) return 'not_registered';
  // A security guard's registration waiting for confirmation (separation of duties) grants nothing.
  if (vehicle.proposal === 'register') return 'pending_approval';
  if (!vehicle.isActive) return 'inactive';
  if (vehicle.approvedUntil !== null && vehicle.approvedUntil < today) return 'expired';
  return 'approved';
}
