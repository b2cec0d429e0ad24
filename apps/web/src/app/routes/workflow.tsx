import { paths } from '@/config/paths';
import { GateWorkflow } from '@/features/onboarding/components/gate-workflow';

export default function WorkflowRoute() {
  return (
    <GateWorkflow
      backHref={paths.onboardSecurity}
      autoGateHref={paths.autoGate}
      realGateHref={paths.realGate}
    />
  );
}
