import { PagePlaceholder } from '@/components/ui/page-placeholder';

export default function OnboardCompanyRoute() {
  return (
    <PagePlaceholder
      title="Company Onboarding"
      description="Add drivers and vehicles in bulk or one at a time."
    />
  );
}
