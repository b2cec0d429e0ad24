import { ArrowLeftIcon } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';

import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { Progress } from '@/components/ui/progress';
import { cn } from '@/lib/cn';
import { useTranslation } from '@/lib/i18n';

import { CompleteStep } from './complete-step';
import { EMPTY_LICENCE, type LicenceDetails, LicenceStep } from './licence-step';
import { EMPTY_PERSONAL_INFO, type PersonalInfo } from './personal-info';
import { PersonalInfoStep } from './personal-info-step';
import { type Selfie, SelfieStep } from './selfie-step';

/** Catalogue keys under `self.steps` (title, and `<key>Description`). */
const STEPS = ['personal', 'licence', 'face', 'complete'] as const;

/**
 * Spec §2/§4 self onboarding: four steps for a driver or transporter registering themselves.
 * Back goes to the onboarding chooser; the final button goes home.
 */
export function SelfOnboarding({ backHref, onFinish }: { backHref: string; onFinish: () => void }) {
  const [stepIndex, setStepIndex] = useState(0);
  const [info, setInfo] = useState<PersonalInfo>(EMPTY_PERSONAL_INFO);
  const [licence, setLicence] = useState<LicenceDetails>(EMPTY_LICENCE);
  const [selfie, setSelfie] = useState<Selfie | null>(null);
  const { t } = useTranslation('onboarding');
  const stepKey = STEPS[stepIndex] ?? STEPS[0];

  const next = () => setStepIndex((index) => Math.min(index + 1, STEPS.length - 1));
  const previous = () => setStepIndex((index) => Math.max(index - 1, 0));

  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6">
      <PageHeader
        title={t('self.title')}
        description={t('self.description')}
        actions={
          <Button variant="outline" asChild>
            <Link href={backHref}>
              <ArrowLeftIcon aria-hidden />
              {t('self.back')}
            </Link>
          </Button>
        }
      />

      <nav aria-label={t('self.progress')} className="grid gap-3">
        <Progress
          value={((stepIndex + 1) / STEPS.length) * 100}
          aria-label={t('self.stepOf', { current: stepIndex + 1, total: STEPS.length })}
        />
        <ol className="grid grid-cols-4 gap-2 text-xs sm:text-sm">
          {STEPS.map((item, index) => (
            <li
              key={item}
              aria-current={index === stepIndex ? 'step' : undefined}
              className={cn(
                'text-muted-foreground',
                index === stepIndex && 'font-medium text-foreground',
              )}
            >
              <span className="hidden sm:inline">{t(`self.steps.${item}`)}</span>
              <span className="sm:hidden">{index + 1}</span>
            </li>
          ))}
        </ol>
      </nav>

      <Card>
        <CardHeader>
          <p className="text-sm text-muted-foreground">
            {t('self.stepOf', { current: stepIndex + 1, total: STEPS.length })}
          </p>
          <h2 className="text-lg font-semibold leading-none">{t(`self.steps.${stepKey}`)}</h2>
          <CardDescription>{t(`self.steps.${stepKey}Description`)}</CardDescription>
        </CardHeader>
        <CardContent>
          {stepIndex === 0 && (
            <PersonalInfoStep
              info={info}
              onContinue={(values) => {
                setInfo(values);
                next();
              }}
            />
          )}
          {stepIndex === 1 && (
            <LicenceStep
              info={info}
              licence={licence}
              onInfoChange={setInfo}
              onLicenceChange={setLicence}
              onBack={previous}
              onContinue={next}
            />
          )}
          {stepIndex === 2 && (
            <SelfieStep
              selfie={selfie}
              onBack={previous}
              onContinue={(taken) => {
                setSelfie(taken);
                next();
              }}
            />
          )}
          {stepIndex === 3 && selfie && (
            <CompleteStep
              info={info}
              licence={licence}
              selfie={selfie}
              onBack={previous}
              onFinish={onFinish}
            />
          )}
        </CardContent>
      </Card>
    </div>
  );
}
