import { useLocation } from 'wouter';

import { paths } from '@/config/paths';
import { SelfOnboarding } from '@/features/onboarding/components/self-onboarding';

export default function OnboardSelfRoute() {
  const [, navigate] = useLocation();
  return <SelfOnboarding backHref={paths.onboarding} onFinish={() => navigate(paths.home)} />;
}
