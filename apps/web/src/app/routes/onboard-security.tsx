import { PagePlaceholder } from '@/components/ui/page-placeholder';

export default function OnboardSecurityRoute() {
  return (
    <PagePlaceholder
      title="Security Onboarding"
      description="Onboard at the gate by QR code or manually."
    />
  );
}
