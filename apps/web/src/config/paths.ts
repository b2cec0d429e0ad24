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
  /** Issue 15: one entry with its evidence. */
  entryLog: (id: string) => `/entry-logs/${encodeURIComponent(id)}`,
  incomingFeed: '/incoming-feed',
  integrations: '/integrations',
  settings: '/settings',
  /** The user's own two-step verification (SEC-26), from the account menu. */
  accountSecurity: '/account/security',
  workflow: '/workflow',
} as const;
