import { ArrowLeftIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';

import type { Correction } from '@boomgate/contracts/corrections';
import type { EntryCapture, EntryDetail as Detail } from '@boomgate/contracts/entry-detail';

import { EntryWarningsPanel, REFUSAL_REASON_LABELS } from '@/components/entry-warnings';
import { OverrideNote } from '@/components/entry-override';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { LoadingScreen } from '@/components/ui/spinner';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { paths } from '@/config/paths';
import { getErrorMessage } from '@/lib/api-client';
import { formatDate, formatTime } from '@/lib/format';

import { useEntryDetail } from '../api/get-entry-detail';

/** How each image is named on the page, by where the entry cites it. */
const CITED_AS_LABELS: Record<string, string> = {
  plateImage: 'Number plate',
  vehicleDiskImage: 'Licence disc',
  driverFaceImage: 'Driver face',
  driverLicenseImage: "Driver's licence",
  passportImage: 'Passport',
  permitImages: 'Permit',
  vehicleLicenceDisc: 'Licence disc (saved)',
  identityDocument: 'ID document (saved)',
  driversLicence: "Driver's licence (saved)",
  passportRecord: 'Passport (saved)',
  weighbridgeTicket: 'Weighbridge ticket (saved)',
};

const KIND_LABELS: Record<Correction['kind'], string> = {
  confirmed: 'Confirmed',
  corrected: 'Corrected',
  typed: 'Entered manually',
};

/** A value as read: lists joined, nothing read as a dash. */
export function showValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return '-';
  if (Array.isArray(value)) return value.map(showValue).join(', ');
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

const when = (timestamp: string) => `${formatDate(timestamp)} ${formatTime(timestamp)}`;

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-wrap justify-between gap-2 border-b py-1.5 text-sm last:border-0">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="font-medium break-all">{children}</dd>
    </div>
  );
}

function CaptureCard({ capture }: { capture: EntryCapture }) {
  const fields = capture.reading
    ? (Object.entries(capture.reading.fields) as [
        string,
        { value: unknown; confidence: number; source: string },
      ][])
    : [];
  const uncertain = new Set(capture.reading?.uncertain ?? []);
  const label = CITED_AS_LABELS[capture.citedAs] ?? capture.citedAs;
  return (
    <Card data-testid="entry-capture" data-cited-as={capture.citedAs}>
      <CardHeader>
        <CardTitle className="text-base">{label}</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        {capture.image ? (
          <img
            src={capture.image}
            alt={label}
            className="max-h-48 w-full rounded-md border object-contain"
          />
        ) : (
          <p className="text-sm text-muted-foreground">Image not shown for your role.</p>
        )}
        {capture.reading === null ? (
          <p className="text-sm text-muted-foreground">No reading was kept for this image.</p>
        ) : (
          <dl>
            {fields.map(([name, field]) => (
              <Row key={name} label={name}>
                <span
                  className={uncertain.has(name) ? 'text-amber-700 dark:text-amber-300' : undefined}
                >
                  {showValue(field.value)}
                </span>{' '}
                <span className="text-xs text-muted-foreground">
                  ({Math.round(field.confidence * 100)}% {field.source}
                  {uncertain.has(name) ? ', uncertain' : ''})
                </span>
              </Row>
            ))}
          </dl>
        )}
      </CardContent>
    </Card>
  );
}

function CorrectionsTable({ corrections }: { corrections: Correction[] }) {
  if (corrections.length === 0)
    return <p className="text-sm text-muted-foreground">No field was typed or corrected.</p>;
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>Field</TableHead>
          <TableHead>Read</TableHead>
          <TableHead>Typed</TableHead>
          <TableHead>What</TableHead>
          <TableHead>By</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {corrections.map((correction) => (
          <TableRow
            key={correction.id}
            data-testid="entry-correction"
            data-field={correction.field}
          >
            <TableCell>
              {correction.field}
              {correction.wasUncertain && (
                <Badge variant="outline" className="ml-1">
                  uncertain
                </Badge>
              )}
            </TableCell>
            <TableCell data-testid="read-value">
              {showValue(correction.readValue)}
              {correction.readConfidence !== null && (
                <span className="text-xs text-muted-foreground">
                  {' '}
                  ({Math.round(correction.readConfidence * 100)}% {correction.readSource})
                </span>
              )}
            </TableCell>
            <TableCell data-testid="typed-value" className="font-medium">
              {correction.typedValue || '-'}
            </TableCell>
            <TableCell>{KIND_LABELS[correction.kind]}</TableCell>
            <TableCell>
              {correction.correctedBy.name ?? '-'}, {when(correction.correctedAt)}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function DetailView({ detail }: { detail: Detail }) {
  const { entry } = detail;
  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title={`Entry ${entry.plateNumber || entry.extractedPlate || ''}`.trim()}
        description={when(entry.timestamp)}
        actions={
          <Link href={paths.dashboard} className="flex items-center gap-1 text-sm underline">
            <ArrowLeftIcon className="size-4" aria-hidden /> Dashboard
          </Link>
        }
      />
      <div className="grid gap-4 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle className="text-base">Decision</CardTitle>
          </CardHeader>
          <CardContent>
            <dl>
              <Row label="Entry">
                {entry.entryGranted ? (
                  <Badge variant="success">Granted</Badge>
                ) : (
                  <Badge variant="destructive">Refused</Badge>
                )}
              </Row>
              {entry.refusalReason && (
                <Row label="Reason">{REFUSAL_REASON_LABELS[entry.refusalReason]}</Row>
              )}
              <Row label="Vehicle">{entry.vehicleApproved ? 'Approved' : 'Not approved'}</Row>
              <Row label="Face">
                {entry.faceVerified ? 'Verified' : 'Not verified'}
                {entry.matchScore !== null ? ` (${entry.matchScore}%)` : ''}
              </Row>
              <Row label="Category">{entry.category}</Row>
              {/* Issue 21: a rig — the trailers presented and the trailer discs cited. */}
              {(entry.trailerPlates?.length ?? 0) > 0 && (
                <Row label="Trailers">
                  <span className="font-mono" data-testid="entry-trailers">
                    {entry.trailerPlates?.join(', ')}
                  </span>
                </Row>
              )}
              {(entry.trailerLicenceDiscIds?.length ?? 0) > 0 && (
                <Row label="Trailer discs">
                  {entry.trailerLicenceDiscIds?.length} cited, checked at the gate
                </Row>
              )}
              <Row label="Recorded by">{entry.recordedBy.name ?? '-'}</Row>
            </dl>
            <OverrideNote entry={entry} />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle className="text-base">Driver</CardTitle>
          </CardHeader>
          <CardContent>
            <dl data-testid="entry-driver">
              <Row label="Name">{entry.driverName ?? '-'}</Row>
              <Row label="Surname">{entry.driverSurname ?? '-'}</Row>
              <Row label="ID number">{entry.driverIdNumber ?? '-'}</Row>
              <Row label="Passport number">{entry.driverPassportNumber ?? '-'}</Row>
              <Row label="Transport">{entry.transportName ?? '-'}</Row>
            </dl>
          </CardContent>
        </Card>
      </div>
      <EntryWarningsPanel warnings={entry.warnings} />
      <section className="flex flex-col gap-2">
        <h2 className="text-lg font-semibold">Typed and corrected fields</h2>
        <CorrectionsTable corrections={detail.corrections} />
      </section>
      <section className="flex flex-col gap-2">
        <h2 className="text-lg font-semibold">Face comparison</h2>
        {detail.faceComparison ? (
          <dl data-testid="entry-face-comparison">
            <Row label="Decision">{detail.faceComparison.decision}</Row>
            <Row label="Match score">{detail.faceComparison.matchScore}%</Row>
            <Row label="Compared with">{detail.faceComparison.reference}</Row>
            <Row label="When">{when(detail.faceComparison.comparedAt)}</Row>
          </dl>
        ) : (
          <p className="text-sm text-muted-foreground">No face comparison backs this entry.</p>
        )}
      </section>
      <section className="flex flex-col gap-2">
        <h2 className="text-lg font-semibold">Captures</h2>
        {detail.captures.length === 0 ? (
          <p className="text-sm text-muted-foreground">No images were kept with this entry.</p>
        ) : (
          <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
            {detail.captures.map((capture, index) => (
              <CaptureCard key={`${capture.citedAs}-${index}`} capture={capture} />
            ))}
          </div>
        )}
      </section>
      <section className="flex flex-col gap-2">
        <h2 className="text-lg font-semibold">Audit trail</h2>
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
  const { data, error, isPending } = useEntryDetail(id);
  if (isPending) return <LoadingScreen />;
  if (error)
    return (
      <p role="alert" className="py-8 text-center text-sm text-destructive">
        {getErrorMessage(error, 'Failed to load the entry. Please try again.')}
      </p>
    );
  return <DetailView detail={data} />;
}
