/**
 * Sites, gates and lanes (issue 16): a tenant's sites, each with gates whose lanes have a
 * direction, and the sites each user works at. Owns: sites, gates, user_sites.
 */
export {
  DEFAULT_GATE_NAME,
  DEFAULT_SITE_NAME,
  type GateRef,
  type SitesRepository,
  createSitesRepository,
  findGate,
} from './sites.repository';
