import { paths } from '@/config/paths';
import { CompanyOnboarding } from '@/features/onboarding/components/company-onboarding';

export default function OnboardCompanyRoute() {
  return <CompanyOnboarding backHref={paths.onboarding} />;
}
