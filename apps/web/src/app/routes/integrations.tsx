import { RoleGate } from '@/features/auth/components/role-gate';
import { IntegrationsSettings } from '@/features/integrations/components/integrations-settings';

export default function IntegrationsRoute() {
  return (
    <RoleGate
      action="manageIntegrations"
      title="Integrations"
      reason="Only tenant and super administrators manage integrations."
    >
      <IntegrationsSettings />
    </RoleGate>
  );
}
