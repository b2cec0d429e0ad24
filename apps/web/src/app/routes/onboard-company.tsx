import { ArrowLeftIcon } from 'lucide-react';
import { Link } from 'wouter';

import { Button } from '@/components/ui/button';
import { PagePlaceholder } from '@/components/ui/page-placeholder';
import { paths } from '@/config/paths';

// TODO(#7): bulk and individual company onboarding, once the server can import drivers and vehicles.
export default function OnboardCompanyRoute() {
  return (
    <PagePlaceholder
      title="Company Onboarding"
      description="Add drivers and vehicles in bulk or one at a time."
    >
      <Button variant="outline" asChild>
        <Link href={paths.onboarding}>
          <ArrowLeftIcon aria-hidden />
          Back
        </Link>
      </Button>
    </PagePlaceholder>
  );
}
