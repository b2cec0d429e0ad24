/** Route builders (spec §2). Use these instead of string literals in links and redirects. */
export const paths = {
  login: '/login',
  register: '/register',
  home: '/',
  dashboard: '/dashboard',
  autoGate: '/auto-gate',
  preArrival: (plate?: string) =>
    plate ? `/pre-arrival?${new URLSearchParams({ plate }).toString()}` : '/pre-arrival',
  registeredVehicles: '/registered-vehicles',
  scanStation: '/scan-station',
  realGate: '/real-gate',
  weighbridge: '/weighbridge',
  onboarding: '/onboarding',
  onboardCompany: '/onboard/company',
  onboardSelf: '/onboard/self',
  onboardSecurity: '/onboard/security',
  safetyInduction: (assignmentId: string) =>
    `/safety-induction/${encodeURIComponent(assignmentId)}`,
  safetyVideos: '/safety-videos',
  users: '/users',
  truckList: '/truck-list',
  /** Issue 16: who is inside a site now, and its printable evacuation roll-call. */
  onSite: '/on-site',
  rollCall: (siteId?: string) =>
    siteId
      ? `/on-site/roll-call?${new URLSearchParams({ siteId }).toString()}`
      : '/on-site/roll-call',
  /** Issue 16: an admin's sites, gates and lanes (under Settings). */
  sitesSettings: '/settings/sites',
  incomingFeed: '/incoming-feed',
  integrations: '/integrations',
  settings: '/settings',
  /** The user's own two-step verification (SEC-26), from the account menu. */
  accountSecurity: '/account/security',
  workflow: '/workflow',
  /** Reports and exports (issue 23). */
  reports: '/reports',
  /** The audit log viewer (issue 23), optionally opened on one target's events. */
  audit: '/audit',
  auditAbout: (targetId: string) => `/audit?${new URLSearchParams({ targetId }).toString()}`,
  /** One entry's decision and evidence (issue 15). */
  entryLog: (id: string) => `/entry-logs/${encodeURIComponent(id)}`,
  /** The notification centre (issue 22): the header's bell opens it. */
  alerts: '/alerts',
} as const;
