import { Link } from 'wouter';

import { PagePlaceholder } from '@/components/ui/page-placeholder';
import { paths } from '@/config/paths';

const options = [
  { href: paths.onboardCompany, title: 'Company Onboarding' },
  { href: paths.onboardSelf, title: 'Self Onboarding' },
  { href: paths.onboardSecurity, title: 'Security Onboarding' },
];

export default function OnboardingRoute() {
  return (
    <PagePlaceholder
      title="Onboarding"
      description="Choose how companies, drivers and security get onto the system."
    >
      <ul className="grid gap-2 sm:grid-cols-3">
        {options.map((option) => (
          <li key={option.href}>
            <Link
              href={option.href}
              className="block rounded-md border px-4 py-3 text-sm font-medium hover:bg-accent"
            >
              {option.title}
            </Link>
          </li>
        ))}
      </ul>
    </PagePlaceholder>
  );
}
