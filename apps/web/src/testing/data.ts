import type { AuthResponse, Tenant } from '@boomgate/contracts/auth';
import type { ReportSummary } from '@boomgate/contracts/reports';
import type { TenantSettings } from '@boomgate/contracts/settings';
import type { User } from '@boomgate/contracts/users';

export function aTenant(overrides: Partial<Tenant> = {}): Tenant {
  return { id: crypto.randomUUID(), name: 'Sishen Iron Ore Mine', ...overrides };
}

/** An organization's settings as GET /api/settings answers them (the defaults a new one gets). */
export function aTenantSettings(overrides: Partial<TenantSettings> = {}): TenantSettings {
  return {
    biometricRetentionDays: null,
    documentRetentionDays: null,
    inductionValidityDays: 365,
    antispoofGating: false,
    antispoofThreshold: 0.5,
    separationOfDuties: true,
    maxApprovalValidityMonths: 12,
    requireMfaForAdmins: false,
    requireMfaForEveryone: false,
    offlineDecisions: 'grant',
    ...overrides,
  };
}

export function aUser(overrides: Partial<User> = {}): User {
  return {
    id: crypto.randomUUID(),
    username: 'thandi',
    fullName: 'Thandi Nkosi',
    email: null,
    role: 'tenant_admin',
    isActive: true,
    ...overrides,
  };
}

export function aSession(
  overrides: {
    user?: Partial<User>;
    tenant?: Partial<Tenant>;
    requirePasswordChange?: boolean;
    requireMfaEnrolment?: boolean;
  } = {},
): AuthResponse {
  return {
    user: aUser(overrides.user),
    tenant: aTenant(overrides.tenant),
    ...(overrides.requirePasswordChange === undefined
      ? {}
      : { requirePasswordChange: overrides.requirePasswordChange }),
    ...(overrides.requireMfaEnrolment ? { requireMfaEnrolment: true } : {}),
  };
}

/** A report with nothing in it for the days asked (every day and hour present, as the server sends). */
export function aReportSummary(
  from: string,
  to: string,
  overrides: Partial<ReportSummary> = {},
): ReportSummary {
  const zero = { entries: 0, granted: 0, refused: 0, arrivals: 0, departures: 0 };
  const days: ReportSummary['days'] = [];
  for (
    let d = new Date(`${from}T00:00:00Z`);
    d.toISOString().slice(0, 10) <= to;
    d = new Date(d.getTime() + 86_400_000)
  )
    days.push({ day: d.toISOString().slice(0, 10), ...zero });
  return {
    from,
    to,
    siteId: null,
    timeZone: 'Africa/Johannesburg',
    totals: { ...zero, approved: 0, faceVerified: 0, corrected: 0 },
    rates: { approval: null, faceVerification: null, manualCorrection: null },
    days,
    hours: Array.from({ length: 24 }, (_, hour) => ({ hour, ...zero })),
    onSite: Array.from({ length: 24 }, (_, hour) => ({ hour, count: 0 })),
    refusalReasons: [],
    turnaround: {
      visits: 0,
      medianMinutes: null,
      p90Minutes: null,
      distribution: [],
      byTransporter: [],
    },
    busiestGates: [],
    weighbridge: {
      loads: 0,
      weighed: 0,
      netMassKg: 0,
      overloadChecked: 0,
      overloaded: 0,
      overloadRate: null,
      byTransporter: [],
    },
    ...overrides,
  };
}
