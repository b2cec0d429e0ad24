import { PagePlaceholder } from '@/components/ui/page-placeholder';

export default function OnboardSelfRoute() {
  return (
    <PagePlaceholder
      title="Self Onboarding"
      description="Drivers and transporters register themselves in four steps."
    />
  );
}
