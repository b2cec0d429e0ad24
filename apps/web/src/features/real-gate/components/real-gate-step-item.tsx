import { CheckCircle2Icon, CircleAlertIcon, CircleDashedIcon, CircleXIcon } from 'lucide-react';
import type { ReactNode } from 'react';

import { Badge } from '@/components/ui/badge';
import { Spinner } from '@/components/ui/spinner';
import { useTranslation } from '@/lib/i18n';
import { cn } from '@/lib/cn';
import { formatPlate } from '@/lib/plates';

import { ManualSummary } from './manual-entry';
import {
  currentStep,
  isManualStep,
  type RealGateState,
  type StepId,
  type StepStatus,
} from './real-gate-machine';
import { stepMeta } from './real-gate-steps';

/* One step of the Real Gate checklist: its status, what it recorded, and (while current) its actions. */

function StatusIcon({ status }: { status: StepStatus }) {
  switch (status) {
    case 'success':
      return <CheckCircle2Icon aria-hidden className="size-6 text-success" />;
    case 'failed':
      return <CircleXIcon aria-hidden className="size-6 text-destructive" />;
    case 'processing':
      return <Spinner className="size-6" />;
    case 'pending':
      return <CircleDashedIcon aria-hidden className="size-6 text-muted-foreground" />;
  }
}

function Fact({ label, value }: { label: string; value: ReactNode }) {
  return (
    <span>
      <span className="text-muted-foreground">{label}: </span>
      <span className="font-medium">{value}</span>
    </span>
  );
}

function StepSummary({ step, state }: { step: StepId; state: RealGateState }) {
  const { t } = useTranslation('realGate');
  const { data } = state;
  if (state.skipped.includes(step))
    return <p className="text-sm text-muted-foreground">{t('status.skipped')}</p>;
  if (isManualStep(step) && data.manual?.[step]) return <ManualSummary step={step} data={data} />;
  const dash = '-';
  let content: ReactNode = null;
  switch (step) {
    case 'plate':
      if (data.plate) {
        content = (
          <>
            <span className="font-mono text-base font-semibold">
              {formatPlate(data.plate.plateNumber)}
            </span>
            {data.plate.approved ? (
              <Badge variant="success">{t('summary.vehicleApproved')}</Badge>
            ) : (
              <Badge variant="secondary">{t('summary.vehicleNotPreRegistered')}</Badge>
            )}
            {data.plate.isTypedByGuard && (
              <Fact
                label={t('summary.cameraRead')}
                value={data.plate.extractedPlate ?? t('summary.nothing')}
              />
            )}
          </>
        );
      }
      break;
    case 'disc':
      if (data.disc) {
        const disc = data.disc.reading;
        content = (
          <>
            <Fact label={t('summary.licenceNumber')} value={disc.licenceNumber ?? dash} />
            <Fact label={t('summary.expires')} value={disc.dateOfExpiry ?? dash} />
            {disc.make && <Fact label={t('summary.make')} value={disc.make} />}
          </>
        );
      }
      break;
    case 'face':
      if (data.face) {
        content = (
          <>
            <img
              src={data.face.image}
              alt={t('summary.driverFace')}
              className="size-14 rounded-md object-cover"
            />
            {data.face.note && <span className="text-muted-foreground">{data.face.note}</span>}
          </>
        );
      }
      break;
    case 'id':
      if (data.identity) {
        const identity = data.identity.reading;
        const name = [identity.givenNames, identity.surname].filter(Boolean).join(' ');
        content = (
          <>
            <Fact label={t('summary.name')} value={name || dash} />
            <Fact
              label={t('summary.idNumber')}
              value={identity.identityNumber ?? t('summary.notRead')}
            />
          </>
        );
      }
      break;
    case 'licence':
      if (data.licence) {
        const licence = data.licence.reading;
        content = (
          <>
            <Fact label={t('summary.name')} value={licence.nameOnCard ?? dash} />
            <Fact
              label={t('summary.licenceNumber')}
              value={licence.licenceNumber ?? t('summary.notRead')}
            />
            <Fact label={t('summary.validTo')} value={licence.validTo ?? dash} />
            {licence.prdpCode && (
              <Fact
                label={t('summary.prdp')}
                value={t('summary.prdpValue', {
                  code: licence.prdpCode,
                  expiry: licence.prdpExpiry ?? dash,
                })}
              />
            )}
          </>
        );
      }
      break;
    case 'passport':
      if (data.passport) {
        content = (
          <Fact
            label={t('summary.passportNumber')}
            value={data.passport.reading.passportNumber ?? t('summary.mrzFailed')}
          />
        );
      }
      break;
    case 'permits':
      // While current, the permits show with their remove buttons in the step's actions.
      if (data.permits.length > 0 && currentStep(state) !== 'permits') {
        content = (
          <>
            {data.permits.map((image, index) => (
              <img
                key={index}
                src={image}
                alt={t('summary.permit', { number: index + 1 })}
                className="size-14 rounded-md border object-cover"
              />
            ))}
          </>
        );
      }
      break;
    case 'ticket':
      if (data.ticket) {
        content = (
          <>
            <Fact label={t('summary.ticket')} value={data.ticket.ticketNumber} />
            {data.ticket.transporter && (
              <Fact label={t('summary.transporter')} value={data.ticket.transporter} />
            )}
          </>
        );
      }
      break;
    case 'complete':
      break;
  }
  if (!content) return null;
  return <div className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm">{content}</div>;
}

export function StepItem({
  step,
  state,
  actions,
  amend,
}: {
  step: StepId;
  state: RealGateState;
  actions: ReactNode;
  /** What may still change on a completed step (the plate's correction). */
  amend?: ReactNode;
}) {
  const { t } = useTranslation('realGate');
  const meta = stepMeta(step);
  const status = state.statuses[step];
  const isCurrent = currentStep(state) === step;
  const error = state.errors[step];
  return (
    <li
      data-testid={`step-${step}`}
      data-status={status}
      aria-current={isCurrent ? 'step' : undefined}
      className={cn(
        'flex gap-3 rounded-lg border p-4',
        isCurrent && 'border-primary shadow-sm',
        !isCurrent && status === 'pending' && 'opacity-60',
        // Issue 19, on a phone: the current step first, finished ones compact, none to come.
        isCurrent ? 'max-md:order-first' : 'max-md:py-2',
        !isCurrent && status === 'pending' && 'max-md:hidden',
      )}
    >
      <StatusIcon status={status} />
      <div className="grid min-w-0 flex-1 gap-2">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <div>
            <h3 className="font-semibold">
              {meta.number}. {meta.title}
            </h3>
            <p className={cn('text-sm text-muted-foreground', !isCurrent && 'max-md:hidden')}>
              {meta.description}
            </p>
          </div>
          <Badge
            variant={
              status === 'success' ? 'success' : status === 'failed' ? 'destructive' : 'outline'
            }
          >
            {state.skipped.includes(step) ? t('status.skipped') : t(`status.${status}`)}
          </Badge>
        </div>
        {error && status === 'failed' && (
          <p className="flex items-center gap-1 text-sm text-destructive">
            <CircleAlertIcon aria-hidden className="size-4" />
            {error}
          </p>
        )}
        <StepSummary step={step} state={state} />
        {amend}
        {isCurrent && actions}
      </div>
    </li>
  );
}
