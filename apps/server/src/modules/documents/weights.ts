import { WEIGHBRIDGE_MASS_TOLERANCE_KG } from '@boomgate/vision';

/**
 * A weighbridge ticket's weights agree when gross − tare = net, within the bridge's resolution
 * (the tolerance the reader's mass check uses too). Unknown when any weight is missing.
 */
export function areWeightsConsistent(weights: {
  tareWeight: number | null;
  grossWeight: number | null;
  netWeight: number | null;
}): boolean | null {
  const { tareWeight, grossWeight, netWeight } = weights;
  if (tareWeight === null || grossWeight === null || netWeight === null) return null;
  return Math.abs(grossWeight - tareWeight - netWeight) <= WEIGHBRIDGE_MASS_TOLERANCE_KG;
}
