import { RoleGate } from '@/features/auth/components/role-gate';
import { SitesSettings } from '@/features/on-site/components/sites-settings';

export default function SitesSettingsRoute() {
  return (
    <RoleGate
      action="editSettings"
      title="Sites and Gates"
      reason="Only tenant and super administrators manage sites."
    >
      <SitesSettings />
    </RoleGate>
  );
}
