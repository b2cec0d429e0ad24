/**
 * How far a weighbridge ticket's gross − tare may differ from its printed net and still agree: the
 * bridge's resolution (tickets print to 10 or 20 kg). The one definition, used by the reader's mass
 * check, the server's stored `weightsConsistent` and the web's check of a reading before it is
 * saved (a module of its own, with no imports, so the web can load it: `@boomgate/vision/mass-tolerance`).
 */
export const WEIGHBRIDGE_MASS_TOLERANCE_KG = 20;
