import { ArrowLeftIcon } from 'lucide-react';
import { Link } from 'wouter';

import type { EntryDetail as Detail } from '@boomgate/contracts/entry-detail';

import { OverrideNote } from '@/components/entry-override';
import { EntryWarningsPanel } from '@/components/entry-warnings';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { LoadingScreen } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { getErrorMessage } from '@/lib/api-client';
import { useTranslation } from '@/lib/i18n';

import { useEntryDetail } from '../api/get-entry-detail';

import { CaptureCard, CorrectionsTable, Row, when } from './entry-evidence';

function DecisionCard({ entry }: { entry: Detail['entry'] }) {
  const { t } = useTranslation('entries');
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">{t('decision.title')}</CardTitle>
      </CardHeader>
      <CardContent>
        <dl>
          <Row label={t('decision.entry')}>
            {entry.entryGranted ? (
              <Badge variant="success">{t('decision.granted')}</Badge>
            ) : (
              <Badge variant="destructive">{t('decision.refused')}</Badge>
            )}
          </Row>
          {entry.refusalReason && (
            <Row label={t('decision.reason')}>{t(`refusal.reasons.${entry.refusalReason}`)}</Row>
          )}
          <Row label={t('decision.vehicle')}>
            {entry.vehicleApproved ? t('decision.approved') : t('decision.notApproved')}
          </Row>
          <Row label={t('decision.face')}>
            {entry.faceVerified ? t('decision.verified') : t('decision.notVerified')}
            {entry.matchScore !== null ? ` (${entry.matchScore}%)` : ''}
          </Row>
          <Row label={t('decision.category')}>{entry.category}</Row>
          {/* Issue 15: the plate decided on and what a stored plate capture read, never a
              device's unbacked claim (the server keeps that only as a warning). */}
          <Row label={t('decision.plate')}>
            <span className="font-mono" data-testid="entry-plate">
              {entry.plateNumber || '-'}
            </span>
          </Row>
          <Row label={t('decision.plateRead')}>
            <span className="font-mono" data-testid="entry-plate-read">
              {entry.extractedPlate ?? t('decision.plateNotRead')}
            </span>
          </Row>
          {/* Issue 21: a rig — the trailers presented and the trailer discs cited. */}
          {(entry.trailerPlates?.length ?? 0) > 0 && (
            <Row label={t('decision.trailers')}>
              <span className="font-mono" data-testid="entry-trailers">
                {entry.trailerPlates?.join(', ')}
              </span>
            </Row>
          )}
          {(entry.trailerLicenceDiscIds?.length ?? 0) > 0 && (
            <Row label={t('decision.trailerDiscs')}>
              {t('decision.trailerDiscsCited', { count: entry.trailerLicenceDiscIds?.length })}
            </Row>
          )}
          <Row label={t('decision.recordedBy')}>{entry.recordedBy.name ?? '-'}</Row>
        </dl>
        <OverrideNote entry={entry} />
      </CardContent>
    </Card>
  );
}

function DriverCard({ entry }: { entry: Detail['entry'] }) {
  const { t } = useTranslation('entries');
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">{t('driver.title')}</CardTitle>
      </CardHeader>
      <CardContent>
        <dl data-testid="entry-driver">
          <Row label={t('driver.name')}>{entry.driverName ?? '-'}</Row>
          <Row label={t('driver.surname')}>{entry.driverSurname ?? '-'}</Row>
          <Row label={t('driver.idNumber')}>{entry.driverIdNumber ?? '-'}</Row>
          <Row label={t('driver.passportNumber')}>{entry.driverPassportNumber ?? '-'}</Row>
          <Row label={t('driver.transport')}>{entry.transportName ?? '-'}</Row>
        </dl>
      </CardContent>
    </Card>
  );
}

function DetailView({ detail }: { detail: Detail }) {
  const { t } = useTranslation('entries');
  const { entry } = detail;
  const plate = entry.plateNumber || entry.extractedPlate || '';
  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title={plate ? t('title', { plate }) : t('titleNoPlate')}
        description={when(entry.timestamp)}
        actions={
          <Link href={paths.dashboard} className="flex items-center gap-1 text-sm underline">
            <ArrowLeftIcon className="size-4" aria-hidden /> {t('dashboard')}
          </Link>
        }
      />
      <div className="grid gap-4 lg:grid-cols-2">
        <DecisionCard entry={entry} />
        <DriverCard entry={entry} />
      </div>
      <EntryWarningsPanel warnings={entry.warnings} />
      <section className="flex flex-col gap-2">
        <h2 className="text-lg font-semibold">{t('corrections.title')}</h2>
        <CorrectionsTable corrections={detail.corrections} />
      </section>
      <section className="flex flex-col gap-2">
        <h2 className="text-lg font-semibold">{t('face.title')}</h2>
        {detail.faceComparison ? (
          <dl data-testid="entry-face-comparison">
            <Row label={t('face.decision')}>{detail.faceComparison.decision}</Row>
            <Row label={t('face.matchScore')}>{detail.faceComparison.matchScore}%</Row>
            <Row label={t('face.comparedWith')}>{detail.faceComparison.reference}</Row>
            <Row label={t('face.when')}>{when(detail.faceComparison.comparedAt)}</Row>
          </dl>
        ) : (
          <p className="text-sm text-muted-foreground">{t('face.none')}</p>
        )}
      </section>
      <section className="flex flex-col gap-2">
        <h2 className="text-lg font-semibold">{t('captures.title')}</h2>
        {detail.captures.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t('captures.none')}</p>
        ) : (
          <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
            {detail.captures.map((capture, index) => (
              <CaptureCard key={`${capture.citedAs}-${index}`} capture={capture} />
            ))}
          </div>
        )}
      </section>
      <section className="flex flex-col gap-2">
        <h2 className="text-lg font-semibold">{t('auditTrail')}</h2>
        <ol className="flex flex-col gap-1 text-sm" data-testid="entry-audit-trail">
          {detail.auditTrail.map((event) => (
            <li key={event.id}>
              <span className="text-muted-foreground">{when(event.occurredAt)}</span> {event.action}
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}

/** Issue 15, /entry-logs/{id}: the decision, its evidence, what was typed and the trail. */
export function EntryDetail({ id }: { id: string }) {
  const { t } = useTranslation('entries');
  const { data, error, isPending } = useEntryDetail(id);
  if (isPending) return <LoadingScreen />;
  if (error)
    return (
      <p role="alert" className="py-8 text-center text-sm text-destructive">
        {getErrorMessage(error, t('loadFailed'))}
      </p>
    );
  return <DetailView detail={data} />;
}
