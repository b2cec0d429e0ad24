import { paths } from '@/config/paths';
import { i18next } from '@/lib/i18n';

/** What an audit event is about, as the viewer names it and where it opens. */
export type AuditTarget = { label: string; href: string | null };

/** English names (the `audit:targets` catalogue holds them, and every other language's). */
const TARGET_LABELS: Record<string, string> = {
  entry_log: 'Entry',
  user: 'User',
  approved_vehicle: 'Registered vehicle',
  driver: 'Driver',
  induction_assignment: 'Induction',
  safety_video: 'Safety video',
  webhook_integration: 'Integration',
  webhook_delivery: 'Callback',
  incoming_request: 'Incoming entry',
  anpr_camera: 'Number-plate camera',
  tenant: 'Organization',
  data_subject: 'Data subject',
  audit_log: 'Audit log',
};

/**
 * The screen that shows an event's target: the entry itself, else the list it lives in (users,
 * vehicles and drivers have no page of their own). Null when no screen shows it.
 */
function hrefFor(targetType: string, targetId: string | null): string | null {
  switch (targetType) {
    case 'entry_log':
      return targetId ? paths.entryLog(targetId) : null;
    case 'user':
      return paths.users;
    case 'approved_vehicle':
      return paths.registeredVehicles;
    case 'driver':
      return paths.onboarding;
    case 'induction_assignment':
    case 'safety_video':
      return paths.safetyVideos;
    case 'webhook_integration':
    case 'webhook_delivery':
    case 'anpr_camera':
      return paths.integrations;
    case 'incoming_request':
      return paths.incomingFeed;
    case 'tenant':
      return paths.settings;
    default:
      return null;
  }
}

export function auditTarget(
  targetType: string | null,
  targetId: string | null,
): AuditTarget | null {
  if (!targetType) return null;
  return {
    label:
      targetType in TARGET_LABELS ? targetTypeLabel(targetType) : targetType.replaceAll('_', ' '),
    href: hrefFor(targetType, targetId),
  };
}

export const AUDIT_TARGET_TYPES = Object.keys(TARGET_LABELS);
export const targetTypeLabel = (targetType: string) =>
  i18next.t(`audit:targets.${targetType}`, {
    defaultValue: TARGET_LABELS[targetType] ?? targetType,
  });
