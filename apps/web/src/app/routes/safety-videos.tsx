import { RoleGate } from '@/features/auth/components/role-gate';
import { SafetyVideos } from '@/features/induction/components/safety-videos';

export default function SafetyVideosRoute() {
  return (
    <RoleGate
      action="manageInductions"
      title="Safety Videos"
      reason="Only administrators and back office manage safety videos and inductions."
    >
      <SafetyVideos />
    </RoleGate>
  );
}
