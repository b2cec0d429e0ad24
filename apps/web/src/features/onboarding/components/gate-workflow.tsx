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

const AUTO_GATE_STEPS: { title: string; description: string; icon: LucideIcon }[] = [
  {
    title: 'Scan the plate',
    description:
      'Tap Start Vehicle Verification and photograph the number plate: straight on, the whole plate in the frame.',
    icon: CameraIcon,
  },
  {
    title: 'Check the driver’s face',
    description:
      'If the vehicle has a driver photo on file, photograph the driver’s face through the window. It must match at least 70%.',
    icon: ScanFaceIcon,
  },
  {
    title: 'Let the vehicle in',
    description:
      'When both checks pass the entry is logged and the gate opens. Tap Process Next Vehicle for the next one.',
    icon: CheckCircle2Icon,
  },
];

type Outcome = {
  result: string;
  tone: 'success' | 'destructive' | 'secondary';
  meaning: string;
  action: string;
};

const OUTCOMES: Outcome[] = [
  {
    result: 'Entry approved - gate opening',
    tone: 'success',
    meaning: 'The vehicle is pre-registered and the driver matches the photo on file.',
    action: 'Let them in. The entry is already logged.',
  },
  {
    result: 'No Reference Photo',
    tone: 'secondary',
    meaning:
      'The vehicle is pre-registered but has no driver photo on file, so no face check was made.',
    action: 'Check the driver’s licence against their face yourself as they pass.',
  },
  {
    result: 'Vehicle not pre-registered',
    tone: 'destructive',
    meaning: 'The plate is not on the approved list.',
    action:
      'Do not open. Scan again if the plate was misread; otherwise use Real Gate Entry, or ask the office to pre-register the vehicle.',
  },
  {
    result: 'Vehicle registration expired',
    tone: 'destructive',
    meaning: 'The vehicle was approved, but its approval date has passed.',
    action: 'Do not open. Use Real Gate Entry and ask the office to renew the approval.',
  },
  {
    result: 'Face verification failed',
    tone: 'destructive',
    meaning: 'The driver does not match the photo on file (below 70%).',
    action:
      'Retake the face photo once in better light. If it fails again, do not open: use Real Gate Entry and call your supervisor.',
  },
  {
    result: 'Cannot Read Plate',
    tone: 'secondary',
    meaning: 'The plate could not be read from the photo.',
    action:
      'Wipe the plate or move closer and scan again. After two failures, use Real Gate Entry.',
  },
];

const REAL_GATE_CASES = [
  'Visitors, contractors and any vehicle that is not pre-registered.',
  'Any auto gate check that fails twice, or a driver you are unsure about.',
  'Loaded trucks: the nine-step checklist captures the licence disc, ID, licence, passport, permits and the weighbridge ticket.',
  'When the auto gate camera or reader is not working.',
];

const CONTACTS = [
  {
    who: 'Shift supervisor',
    when: 'A failed face check, an argument at the gate, or anything you are unsure about.',
  },
  {
    who: 'Security control room',
    when: 'A blocked or suspicious vehicle, forced entry, or the gate or cameras not working.',
  },
  {
    who: 'Site emergency line',
    when: 'Injuries, fire, spills or any danger to life. Call first, then report.',
  },
];

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
  return (
    <div className="mx-auto flex w-full max-w-4xl flex-col gap-6">
      <PageHeader
        title="Gate Workflow"
        description="How vehicles get through the gate: read this before your first shift."
        actions={
          <Button variant="outline" asChild>
            <Link href={backHref}>
              <ArrowLeftIcon aria-hidden />
              Back
            </Link>
          </Button>
        }
      />

      <Card>
        <CardHeader>
          <CardTitle>1. The auto gate, for pre-registered vehicles</CardTitle>
          <CardDescription>Most contracted trucks go through in under a minute.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <ol className="grid gap-3 md:grid-cols-3">
            {AUTO_GATE_STEPS.map(({ title, description, icon: Icon }, index) => (
              <li key={title} className="flex gap-3 rounded-lg border p-4">
                <span className="flex size-8 shrink-0 items-center justify-center rounded-full bg-primary/10 text-primary">
                  <Icon aria-hidden className="size-4" />
                </span>
                <div className="grid gap-1">
                  <p className="font-medium">
                    Step {index + 1}: {title}
                  </p>
                  <p className="text-sm text-muted-foreground">{description}</p>
                </div>
              </li>
            ))}
          </ol>
          <div>
            <Button asChild>
              <Link href={autoGateHref}>Open Auto Gate</Link>
            </Button>
          </div>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>2. What each result means</CardTitle>
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
                  <p>{outcome.meaning}</p>
                  <p className="font-medium">{outcome.action}</p>
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
            3. When to use Real Gate Entry
          </CardTitle>
        </CardHeader>
        <CardContent className="grid gap-4">
          <ul className="grid list-disc gap-1 pl-5 text-sm">
            {REAL_GATE_CASES.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
          <div>
            <Button asChild variant="outline">
              <Link href={realGateHref}>Open Real Gate Entry</Link>
            </Button>
          </div>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <PhoneCallIcon aria-hidden className="size-5 text-primary" />
            4. Who to call
          </CardTitle>
          <CardDescription>
            The numbers for your site are posted in the gatehouse; save them on your phone.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <dl className="grid gap-3 sm:grid-cols-3">
            {CONTACTS.map((contact) => (
              <div key={contact.who} className="grid gap-1 rounded-lg border p-4">
                <dt className="font-medium">{contact.who}</dt>
                <dd className="text-sm text-muted-foreground">{contact.when}</dd>
              </div>
            ))}
          </dl>
        </CardContent>
      </Card>
    </div>
  );
}
