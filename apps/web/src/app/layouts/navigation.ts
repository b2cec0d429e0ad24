import {
  ChartColumnIcon,
  CarIcon,
  ClapperboardIcon,
  ClipboardPlusIcon,
  DoorOpenIcon,
  HouseIcon,
  InboxIcon,
  LayoutDashboardIcon,
  ListChecksIcon,
  type LucideIcon,
  PlugIcon,
  SettingsIcon,
  ScaleIcon,
  ScanLineIcon,
  ScanTextIcon,
  ScrollTextIcon,
  ShieldCheckIcon,
  TruckIcon,
  UserRoundPlusIcon,
  UsersIcon,
} from 'lucide-react';

import type { Role } from '@boomgate/contracts/roles';

import { paths } from '@/config/paths';

export type NavItem = {
  title: string;
  href: string;
  icon: LucideIcon;
  /** Roles that see the item; every role when absent. */
  roles?: readonly Role[];
  /** Other paths on which the item counts as the current page. */
  aliases?: readonly string[];
};

const ADMINS: readonly Role[] = ['super_admin', 'tenant_admin'];
/** Spec §6: Onboarding is for super_admin, tenant_admin and back_office only. */
const ONBOARDING_ROLES: readonly Role[] = ['super_admin', 'tenant_admin', 'back_office'];

const dashboard: NavItem = {
  title: 'Dashboard',
  href: paths.dashboard,
  icon: LayoutDashboardIcon,
  aliases: [paths.home],
};
const autoGate: NavItem = { title: 'Auto Gate', href: paths.autoGate, icon: ScanLineIcon };
const preArrival: NavItem = {
  title: 'Pre-Arrival',
  href: paths.preArrival(),
  icon: ClipboardPlusIcon,
};
const registeredVehicles: NavItem = {
  title: 'Registered Vehicles',
  href: paths.registeredVehicles,
  icon: CarIcon,
};
const realGate: NavItem = { title: 'Real Gate Entry', href: paths.realGate, icon: DoorOpenIcon };
const weighbridge: NavItem = { title: 'Weighbridge', href: paths.weighbridge, icon: ScaleIcon };
const scanStation: NavItem = { title: 'Scan Station', href: paths.scanStation, icon: ScanTextIcon };
const incomingFeed: NavItem = { title: 'Incoming Feed', href: paths.incomingFeed, icon: InboxIcon };
const truckList: NavItem = { title: 'Truck List', href: paths.truckList, icon: TruckIcon };
/** Issue 16: vehicles and people inside now, and the roll-call. */
const onSite: NavItem = {
  title: 'On Site',
  href: paths.onSite,
  icon: ListChecksIcon,
  aliases: [paths.rollCall()],
};
const onboarding: NavItem = {
  title: 'Onboarding',
  href: paths.onboarding,
  icon: UserRoundPlusIcon,
  roles: ONBOARDING_ROLES,
};
/** Managing safety videos and assignments (issue 7): the office, not the gate. */
const safetyVideos: NavItem = {
  title: 'Safety Videos',
  href: paths.safetyVideos,
  icon: ClapperboardIcon,
  roles: ONBOARDING_ROLES,
};
const integrations: NavItem = {
  title: 'Integrations',
  href: paths.integrations,
  icon: PlugIcon,
  roles: ADMINS,
};
const settings: NavItem = {
  title: 'Settings',
  href: paths.settings,
  icon: SettingsIcon,
  roles: ADMINS,
};
/** Issue 23: reports and exports, for the office. */
const reports: NavItem = {
  title: 'Reports',
  href: paths.reports,
  icon: ChartColumnIcon,
  roles: ONBOARDING_ROLES,
};
/** Issue 23: the audit log viewer. */
const auditLog: NavItem = {
  title: 'Audit Log',
  href: paths.audit,
  icon: ScrollTextIcon,
  roles: ADMINS,
};
const userManagement: NavItem = {
  title: 'User Management',
  href: paths.users,
  icon: UsersIcon,
  roles: ADMINS,
};

/** Desktop sidebar, in display order. */
export const sidebarItems: readonly NavItem[] = [
  dashboard,
  autoGate,
  preArrival,
  registeredVehicles,
  realGate,
  weighbridge,
  scanStation,
  incomingFeed,
  truckList,
  onSite,
  reports,
  onboarding,
  safetyVideos,
  userManagement,
  integrations,
  auditLog,
  settings,
];

/** The user's own account, beside their name and Logout (desktop footer, mobile menu). */
export const accountItems: readonly NavItem[] = [
  { title: 'Two-Step Verification', href: paths.accountSecurity, icon: ShieldCheckIcon },
];

/** Spec §2: the mobile bottom navigation (followed by the Menu button). */
export const bottomNavItems: readonly NavItem[] = [
  { title: 'Home', href: paths.dashboard, icon: HouseIcon, aliases: [paths.home] },
  autoGate,
  { title: 'Register', href: paths.preArrival(), icon: ClipboardPlusIcon },
];

/** Spec §2: the mobile Menu drawer (followed by Logout). */
export const mobileMenuItems: readonly NavItem[] = [
  truckList,
  registeredVehicles,
  realGate,
  weighbridge,
  userManagement,
];

export function visibleTo(items: readonly NavItem[], role: Role) {
  return items.filter((item) => !item.roles || item.roles.includes(role));
}

export function isCurrent(item: NavItem, location: string) {
  return item.href === location || (item.aliases?.includes(location) ?? false);
}
