import { Building2Icon, ChevronRightIcon, ShieldIcon, UserRoundIcon } from 'lucide-react';
import type { ComponentType, SVGProps } from 'react';
import { Link } from 'wouter';

import { PageHeader } from '@/components/ui/page-header';

export type OnboardingOption = {
  href: string;
  title: string;
  description: string;
  icon: ComponentType<SVGProps<SVGSVGElement>>;
};

/** Spec §2 /onboarding: companies, drivers (self) and security. */
export function OnboardingChooser({
  companyHref,
  selfHref,
  securityHref,
}: {
  companyHref: string;
  selfHref: string;
  securityHref: string;
}) {
  const options: OnboardingOption[] = [
    {
      href: companyHref,
      title: 'Company Onboarding',
      description: 'A transport company adds its drivers and vehicles, in bulk or one at a time.',
      icon: Building2Icon,
    },
    {
      href: selfHref,
      title: 'Self Onboarding',
      description:
        'A driver registers on their own phone: details, licence photo and a live selfie.',
      icon: UserRoundIcon,
    },
    {
      href: securityHref,
      title: 'Security Onboarding',
      description: 'Get a new gate guard set up, by QR code or by walking through the workflow.',
      icon: ShieldIcon,
    },
  ];
  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-6">
      <PageHeader title="Onboarding" description="Choose who you are getting onto the system." />
      <ul className="grid gap-4 md:grid-cols-3">
        {options.map(({ href, title, description, icon: Icon }) => (
          <li key={href}>
            <Link
              href={href}
              className="group flex h-full flex-col gap-3 rounded-xl border bg-card p-5 shadow-sm transition-colors hover:border-primary/60 hover:bg-accent focus-visible:outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
            >
              <span className="flex size-10 items-center justify-center rounded-lg bg-primary/10 text-primary">
                <Icon aria-hidden className="size-5" />
              </span>
              <span className="flex items-center justify-between gap-2 font-semibold">
                {title}
                <ChevronRightIcon
                  aria-hidden
                  className="size-4 text-muted-foreground transition-transform group-hover:translate-x-0.5"
                />
              </span>
              <span className="text-sm text-muted-foreground">{description}</span>
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
