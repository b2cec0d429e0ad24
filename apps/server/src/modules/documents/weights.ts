/**
 * A weighbridge ticket's weights agree when gross − tare = net, within the bridge's resolution
 * (tickets print to 10 or 20 kg; allow 20). Unknown when any weight is missing.
 */
export const WEIGHT_TOLERANCE_KG = 20;

export function areWeightsConsistent(weights: {
  tareWeight: number | null;
  grossWeight: number | null;
  netWeight: number | null;
}): boolean | null {
  const { tareWeight, grossWeight, netWeight } = weights;
  if (tareWeight === null || grossWeight === null || netWeight === null) return null;
  return Math.abs(grossWeight - tareWeight - netWeight) <= WEIGHT_TOLERANCE_KG;
}
