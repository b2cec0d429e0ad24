import {
  ArrowLeftIcon,
  CameraIcon,
  CheckCircle2Icon,
  ClipboardCheckIcon,
  PhoneCallIcon,
  ScanFaceIcon,
  type LucideIcon,
} from 'lucide-react';
import { Link } from 'wouter';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { useTranslation } from '@/lib/i18n';

const AUTO_GATE_STEPS: { key: 'scan' | 'face' | 'enter'; icon: LucideIcon }[] = [
  { key: 'scan', icon: CameraIcon },
  { key: 'face', icon: ScanFaceIcon },
  { key: 'enter', icon: CheckCircle2Icon },
];

/** Each auto gate result as the guard sees it (the spec's words), with what it means and asks. */
const OUTCOMES: {
  key: string;
  result: string;
  tone: 'success' | 'destructive' | 'secondary';
}[] = [
  { key: 'approved', result: 'Entry approved - gate opening', tone: 'success' },
  { key: 'noReferencePhoto', result: 'No Reference Photo', tone: 'secondary' },
  { key: 'notRegistered', result: 'Vehicle not pre-registered', tone: 'destructive' },
  { key: 'registrationExpired', result: 'Vehicle registration expired', tone: 'destructive' },
  { key: 'faceFailed', result: 'Face verification failed', tone: 'destructive' },
  { key: 'cannotReadPlate', result: 'Cannot Read Plate', tone: 'secondary' },
];

const REAL_GATE_CASES = ['visitors', 'failedTwice', 'loadedTrucks', 'cameraDown'] as const;

const CONTACTS = ['supervisor', 'controlRoom', 'emergency'] as const;

/**
 * /workflow: what a new gate guard needs on day one (the target of manual security onboarding).
 * The spec gives this screen no content; it summarises the gate screens as built.
 */
export function GateWorkflow({
  backHref,
  autoGateHref,
  realGateHref,
}: {
  backHref: string;
  autoGateHref: string;
  realGateHref: string;
}) {
  const { t } = useTranslation('onboarding');
  return (
    <div className="mx-auto flex w-full max-w-4xl flex-col gap-6">
      <PageHeader
        title={t('workflow.title')}
        description={t('workflow.description')}
        actions={
          <Button variant="outline" asChild>
            <Link href={backHref}>
              <ArrowLeftIcon aria-hidden />
              {t('workflow.back')}
            </Link>
          </Button>
        }
      />

      <Card>
        <CardHeader>
          <CardTitle>{t('workflow.autoGateTitle')}</CardTitle>
          <CardDescription>{t('workflow.autoGateDescription')}</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <ol className="grid gap-3 md:grid-cols-3">
            {AUTO_GATE_STEPS.map(({ key, icon: Icon }, index) => (
              <li key={key} className="flex gap-3 rounded-lg border p-4">
                <span className="flex size-8 shrink-0 items-center justify-center rounded-full bg-primary/10 text-primary">
                  <Icon aria-hidden className="size-4" />
                </span>
                <div className="grid gap-1">
                  <p className="font-medium">
                    {t('workflow.step', {
                      number: index + 1,
                      title: t(`workflow.steps.${key}.title`),
                    })}
                  </p>
                  <p className="text-sm text-muted-foreground">
                    {t(`workflow.steps.${key}.description`)}
                  </p>
                </div>
              </li>
            ))}
          </ol>
          <div>
            <Button asChild>
              <Link href={autoGateHref}>{t('workflow.openAutoGate')}</Link>
            </Button>
          </div>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>{t('workflow.resultsTitle')}</CardTitle>
        </CardHeader>
        <CardContent>
          <dl className="grid gap-3">
            {OUTCOMES.map((outcome) => (
              <div
                key={outcome.result}
                className="grid gap-1 rounded-lg border p-4 sm:grid-cols-[14rem_1fr] sm:gap-4"
              >
                <dt>
                  <Badge variant={outcome.tone}>{outcome.result}</Badge>
                </dt>
                <dd className="grid gap-1 text-sm">
                  <p>{t(`workflow.outcomes.${outcome.key}.meaning`)}</p>
                  <p className="font-medium">{t(`workflow.outcomes.${outcome.key}.action`)}</p>
                </dd>
              </div>
            ))}
          </dl>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <ClipboardCheckIcon aria-hidden className="size-5 text-primary" />
            {t('workflow.realGateTitle')}
          </CardTitle>
        </CardHeader>
        <CardContent className="grid gap-4">
          <ul className="grid list-disc gap-1 pl-5 text-sm">
            {REAL_GATE_CASES.map((item) => (
              <li key={item}>{t(`workflow.realGateCases.${item}`)}</li>
            ))}
          </ul>
          <div>
            <Button asChild variant="outline">
              <Link href={realGateHref}>{t('workflow.openRealGate')}</Link>
            </Button>
          </div>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <PhoneCallIcon aria-hidden className="size-5 text-primary" />
            {t('workflow.contactsTitle')}
          </CardTitle>
          <CardDescription>{t('workflow.contactsDescription')}</CardDescription>
        </CardHeader>
        <CardContent>
          <dl className="grid gap-3 sm:grid-cols-3">
            {CONTACTS.map((contact) => (
              <div key={contact} className="grid gap-1 rounded-lg border p-4">
                <dt className="font-medium">{t(`workflow.contacts.${contact}.who`)}</dt>
                <dd className="text-sm text-muted-foreground">
                  {t(`workflow.contacts.${contact}.when`)}
                </dd>
              </div>
            ))}
          </dl>
        </CardContent>
      </Card>
    </div>
  );
}
