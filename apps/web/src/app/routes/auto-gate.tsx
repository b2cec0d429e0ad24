import { PagePlaceholder } from '@/components/ui/page-placeholder';

export default function AutoGateRoute() {
  return (
    <PagePlaceholder
      title="Automated Gate Entry"
      description="NPR and biometric verification system for contracted vehicles"
    />
  );
}
