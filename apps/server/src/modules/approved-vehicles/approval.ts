/**
 * Whether an approval lets the vehicle in on `today` (YYYY-MM-DD in the site's time zone): it must
 * be switched on, and an approvedUntil date lasts through that whole day.
 */
export function approvalStatus(
  vehicle: { isActive: boolean; approvedUntil: string | null } | undefined,
  today: string,
): 'approved' | 'not_registered' | 'inactive' | 'expired' {
  if (!vehicle) return 'not_registered';
  if (!vehicle.isActive) return 'inactive';
  if (vehicle.approvedUntil !== null && vehicle.approvedUntil < today) return 'expired';
  return 'approved';
}
