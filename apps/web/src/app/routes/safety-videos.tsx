import { RoleGate } from '@/features/auth/components/role-gate';
import { SafetyVideos } from '@/features/induction/components/safety-videos';
import { useTranslation } from '@/lib/i18n';

export default function SafetyVideosRoute() {
  // The role gate's title is the screen's own; its reason is shared by the routes.
  const { t } = useTranslation();
  return (
    <RoleGate
      action="manageInductions"
      title={t('induction:admin.title')}
      reason={t('shared:gates.safetyVideos')}
    >
      <SafetyVideos />
    </RoleGate>
  );
}
