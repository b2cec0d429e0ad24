import type { ReactNode } from 'react';

import type { Correction } from '@boomgate/contracts/corrections';
import type { EntryCapture } from '@boomgate/contracts/entry-detail';

import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { formatDate, formatTime } from '@/lib/format';
import { useTranslation } from '@/lib/i18n';

/** A value as read: lists joined, nothing read as a dash. */
export function showValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return '-';
  if (Array.isArray(value)) return value.map(showValue).join(', ');
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

export const when = (timestamp: string) => `${formatDate(timestamp)} ${formatTime(timestamp)}`;

export function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-wrap justify-between gap-2 border-b py-1.5 text-sm last:border-0">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="font-medium break-all">{children}</dd>
    </div>
  );
}

/** One image the entry cites, named by where it is cited, with what was read from it. */
export function CaptureCard({ capture }: { capture: EntryCapture }) {
  const { t } = useTranslation('entries');
  const fields = capture.reading
    ? (Object.entries(capture.reading.fields) as [
        string,
        { value: unknown; confidence: number; source: string },
      ][])
    : [];
  const uncertain = new Set(capture.reading?.uncertain ?? []);
  // An image cited under a name this screen does not know yet shows that name as it is.
  const label = t(`captures.citedAs.${capture.citedAs}`, { defaultValue: capture.citedAs });
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
          <p className="text-sm text-muted-foreground">{t('captures.imageHidden')}</p>
        )}
        {capture.reading === null ? (
          <p className="text-sm text-muted-foreground">{t('captures.noReading')}</p>
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
                  {uncertain.has(name) ? t('captures.uncertain') : ''})
                </span>
              </Row>
            ))}
          </dl>
        )}
      </CardContent>
    </Card>
  );
}

/** What the guard typed or corrected, beside what was read (issue 15). */
export function CorrectionsTable({ corrections }: { corrections: Correction[] }) {
  const { t } = useTranslation('entries');
  if (corrections.length === 0)
    return <p className="text-sm text-muted-foreground">{t('corrections.none')}</p>;
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>{t('corrections.field')}</TableHead>
          <TableHead>{t('corrections.read')}</TableHead>
          <TableHead>{t('corrections.typed')}</TableHead>
          <TableHead>{t('corrections.what')}</TableHead>
          <TableHead>{t('corrections.by')}</TableHead>
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
                  {t('corrections.uncertain')}
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
            <TableCell>{t(`corrections.kinds.${correction.kind}`)}</TableCell>
            <TableCell>
              {correction.correctedBy.name ?? '-'}, {when(correction.correctedAt)}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
