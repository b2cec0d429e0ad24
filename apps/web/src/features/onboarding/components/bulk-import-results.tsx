import { CheckCircle2Icon, DownloadIcon, UploadIcon } from 'lucide-react';

import type { ImportPreview, ImportResult, ImportRowError } from '@boomgate/contracts/onboarding';

import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { type TFunction, useTranslation } from '@/lib/i18n';

/** The preview table shows this many rows; the counts and the error report cover all of them. */
export const PREVIEW_ROW_LIMIT = 200;

type OnboardingT = TFunction<'onboarding'>;

/** A row's problem with its column's label in the reader's language. */
const describeError = (t: OnboardingT, error: ImportRowError) =>
  error.field
    ? t('bulk.fieldProblem', {
        field: t(`fields.${error.field}`, error.field),
        problem: error.message,
      })
    : error.message;

/** Spec §2's "5 drivers and 3 vehicles", with plurals in the reader's language. */
export const summaryOf = (t: OnboardingT, drivers: number, vehicles: number) =>
  t('bulk.summary', {
    drivers: t('bulk.drivers', { count: drivers }),
    vehicles: t('bulk.vehicles', { count: vehicles }),
  });

export function PreviewSection({
  preview,
  isImporting,
  isDownloading,
  onImport,
  onDownloadReport,
}: {
  preview: ImportPreview;
  isImporting: boolean;
  isDownloading: boolean;
  onImport: () => void;
  onDownloadReport: () => void;
}) {
  const { t } = useTranslation('onboarding');
  const invalid = preview.totalRows - preview.validRows;
  // Rows with errors first (in file order), so none hides below the rows that are fine.
  const shown = [
    ...preview.rows.filter((row) => row.errors.length > 0),
    ...preview.rows.filter((row) => row.errors.length === 0),
  ].slice(0, PREVIEW_ROW_LIMIT);
  return (
    <section
      aria-labelledby="preview-heading"
      className="grid min-w-0 grid-cols-1 gap-3 rounded-lg border p-4"
    >
      <h3 id="preview-heading" className="font-medium">
        {t('bulk.checkHeading')}
      </h3>
      <p data-testid="preview-summary" className="text-sm">
        {t('bulk.ready', {
          file: preview.fileName,
          valid: preview.validRows,
          total: preview.totalRows,
          summary: summaryOf(t, preview.drivers, preview.vehicles),
        })}
        {invalid > 0 && (
          <span className="text-destructive"> {t('bulk.invalidRows', { count: invalid })}</span>
        )}
      </p>
      <div className="max-h-[480px] overflow-auto rounded-md border">
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>{t('bulk.columns.row')}</TableHead>
              <TableHead>{t('bulk.columns.driver')}</TableHead>
              <TableHead>{t('bulk.columns.idNumber')}</TableHead>
              <TableHead>{t('bulk.columns.plate')}</TableHead>
              <TableHead>{t('bulk.columns.status')}</TableHead>
              <TableHead>{t('bulk.columns.problems')}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {shown.map((row) => (
              <TableRow key={row.rowNumber} data-row={row.rowNumber}>
                <TableCell>{row.rowNumber}</TableCell>
                <TableCell>
                  {[row.values.name, row.values.surname].filter(Boolean).join(' ') || '—'}
                </TableCell>
                <TableCell className="font-mono">{row.values.idNumber ?? '—'}</TableCell>
                <TableCell className="font-mono">{row.values.plateNumber ?? '—'}</TableCell>
                <TableCell>
                  {row.errors.length === 0 ? (
                    <Badge variant="success">{t('bulk.rowReady')}</Badge>
                  ) : (
                    <Badge variant="destructive">{t('bulk.rowError')}</Badge>
                  )}
                </TableCell>
                <TableCell className="whitespace-normal text-sm">
                  {row.errors.length > 0 && (
                    <ul className="grid gap-0.5 text-destructive">
                      {row.errors.map((error) => (
                        <li key={`${error.field}:${error.message}`}>{describeError(t, error)}</li>
                      ))}
                    </ul>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
      {preview.rows.length > shown.length && (
        <p className="text-xs text-muted-foreground">
          {t('bulk.showing', { shown: shown.length, total: preview.rows.length })}
        </p>
      )}
      <div className="flex flex-wrap justify-end gap-2">
        {invalid > 0 && (
          <Button variant="outline" onClick={onDownloadReport} disabled={isDownloading}>
            <DownloadIcon aria-hidden />
            {t('bulk.downloadReport')}
          </Button>
        )}
        <Button onClick={onImport} disabled={preview.validRows === 0 || isImporting}>
          {isImporting ? <Spinner /> : <UploadIcon aria-hidden />}
          {isImporting ? t('bulk.importing') : t('bulk.importRows', { count: preview.validRows })}
        </Button>
      </div>
    </section>
  );
}

/**
 * The spec's result line, from what the server actually saved. (The error report is offered with
 * the preview: after the import, every row of the file would count as already registered.)
 */
export function ImportSummary({
  result,
  onStartOver,
}: {
  result: ImportResult;
  onStartOver: () => void;
}) {
  const { t } = useTranslation('onboarding');
  const rejected = result.rejected;
  return (
    <Alert variant={rejected.length > 0 ? 'warning' : 'success'} data-testid="import-result">
      <CheckCircle2Icon aria-hidden />
      <AlertTitle>{t('bulk.resultTitle')}</AlertTitle>
      <AlertDescription>
        <p>
          {t('bulk.imported', {
            summary: summaryOf(t, result.driversImported, result.vehiclesImported),
          })}
        </p>
        {rejected.length > 0 && (
          <>
            <p>{t('bulk.rejected', { count: rejected.length })}</p>
            <ul className="list-disc pl-4">
              {rejected.slice(0, 20).map((row) => (
                <li key={row.rowNumber}>
                  {t('bulk.rejectedRow', {
                    row: row.rowNumber,
                    problems: row.errors.map((error) => describeError(t, error)).join(' '),
                  })}
                </li>
              ))}
            </ul>
            {rejected.length > 20 && <p>{t('bulk.more', { number: rejected.length - 20 })}</p>}
          </>
        )}
        <div className="mt-2 flex flex-wrap gap-2">
          <Button variant="outline" size="sm" onClick={onStartOver}>
            {t('bulk.uploadAnother')}
          </Button>
        </div>
      </AlertDescription>
    </Alert>
  );
}
