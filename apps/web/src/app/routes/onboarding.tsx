import { paths } from '@/config/paths';
import { OnboardingChooser } from '@/features/onboarding/components/onboarding-chooser';

export default function OnboardingRoute() {
  return (
    <OnboardingChooser
      companyHref={paths.onboardCompany}
      selfHref={paths.onboardSelf}
      securityHref={paths.onboardSecurity}
    />
  );
}
