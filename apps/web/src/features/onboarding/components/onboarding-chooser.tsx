import { Building2Icon, ChevronRightIcon, ShieldIcon, UserRoundIcon } from 'lucide-react';
import type { ComponentType, SVGProps } from 'react';
import { Link } from 'wouter';

import { PageHeader } from '@/components/ui/page-header';
import { useTranslation } from '@/lib/i18n';

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
  const { t } = useTranslation('onboarding');
  const options: OnboardingOption[] = [
    {
      href: companyHref,
      title: t('chooser.company'),
      description: t('chooser.companyDescription'),
      icon: Building2Icon,
    },
    {
      href: selfHref,
      title: t('chooser.self'),
      description: t('chooser.selfDescription'),
      icon: UserRoundIcon,
    },
    {
      href: securityHref,
      title: t('chooser.security'),
      description: t('chooser.securityDescription'),
      icon: ShieldIcon,
    },
  ];
  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-6">
      <PageHeader title={t('chooser.title')} description={t('chooser.description')} />
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
