import {
  CheckCircle2Icon,
  DownloadIcon,
  FileSpreadsheetIcon,
  TriangleAlertIcon,
  UploadIcon,
} from 'lucide-react';
import { useId, useRef, useState } from 'react';

import {
  type ImportPreview,
  type ImportResult,
  type ImportRowError,
  MAX_IMPORT_FILE_BYTES,
} from '@boomgate/contracts/onboarding';

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
import { toast } from '@/hooks/use-toast';
import { apiUrl, getErrorMessage } from '@/lib/api-client';
import { type TFunction, useTranslation } from '@/lib/i18n';
import { saveBlob } from '@/lib/save-blob';

import {
  downloadErrorReport,
  TEMPLATE_CSV_URL,
  TEMPLATE_XLSX_URL,
  useImportFile,
  usePreviewImport,
} from '../api/company-onboarding';

/** The preview table shows this many rows; the counts and the error report cover all of them. */
export const PREVIEW_ROW_LIMIT = 200;

const ACCEPT =
  '.csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * Spec §2/§9: CSV or XLSX up to 10MB. Checked here for a quick answer, and again on the server.
 * Answers the `onboarding:bulk` key of the problem.
 */
export function checkBulkFile(file: Pick<File, 'name' | 'size'>): 'fileType' | 'fileSize' | null {
  if (!/\.(csv|xlsx)$/i.test(file.name)) return 'fileType';
  if (file.size > MAX_IMPORT_FILE_BYTES) return 'fileSize';
  return null;
}

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
const summaryOf = (t: OnboardingT, drivers: number, vehicles: number) =>
  t('bulk.summary', {
    drivers: t('bulk.drivers', { count: drivers }),
    vehicles: t('bulk.vehicles', { count: vehicles }),
  });

/**
 * Bulk tab of company onboarding: download the template, choose a filled-in file, see every row
 * with its errors, import the valid rows, then the summary ("5 drivers and 3 vehicles") with the
 * rejected rows and why.
 */
export function BulkImport() {
  const { t } = useTranslation('onboarding');
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [fileProblem, setFileProblem] = useState<'fileType' | 'fileSize' | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [isDownloading, setIsDownloading] = useState(false);
  const preview = usePreviewImport();
  const importFile = useImportFile();

  const choose = (chosen: File | undefined) => {
    if (!chosen) return;
    setResult(null);
    importFile.reset();
    const problem = checkBulkFile(chosen);
    setFileProblem(problem);
    setFile(problem ? null : chosen);
    if (problem) {
      preview.reset();
      return;
    }
    preview.mutate(chosen);
  };

  const runImport = () => {
    if (!file) return;
    importFile.mutate(file, {
      onSuccess: (done) => {
        setResult(done);
        preview.reset();
        toast({
          title: t('bulk.importComplete'),
          description: t('bulk.imported', {
            summary: summaryOf(t, done.driversImported, done.vehiclesImported),
          }),
        });
      },
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: t('bulk.importFailed'),
          description: getErrorMessage(error, t('bulk.importFailedFallback')),
        }),
    });
  };

  const downloadReport = async () => {
    if (!file) return;
    setIsDownloading(true);
    try {
      saveBlob(await downloadErrorReport(file), 'boomgate-import-errors.csv');
    } catch (error) {
      toast({
        variant: 'destructive',
        title: t('bulk.downloadFailed'),
        description: getErrorMessage(error, t('bulk.downloadFailedFallback')),
      });
    } finally {
      setIsDownloading(false);
    }
  };

  const startOver = () => {
    setFile(null);
    setResult(null);
    setFileProblem(null);
    preview.reset();
    importFile.reset();
    if (inputRef.current) inputRef.current.value = '';
  };

  return (
    <div className="grid grid-cols-1 gap-6">
      <section
        aria-labelledby="template-heading"
        className="grid min-w-0 grid-cols-1 gap-3 rounded-lg border p-4"
      >
        <h3 id="template-heading" className="font-medium">
          {t('bulk.templateHeading')}
        </h3>
        <p className="text-sm text-muted-foreground">{t('bulk.templateHint')}</p>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" asChild>
            <a href={apiUrl(TEMPLATE_CSV_URL)} download>
              <DownloadIcon aria-hidden />
              {t('bulk.csvTemplate')}
            </a>
          </Button>
          <Button variant="outline" asChild>
            <a href={apiUrl(TEMPLATE_XLSX_URL)} download>
              <DownloadIcon aria-hidden />
              {t('bulk.xlsxTemplate')}
            </a>
          </Button>
        </div>
      </section>

      <section
        aria-labelledby="upload-heading"
        className="grid min-w-0 grid-cols-1 gap-3 rounded-lg border p-4"
      >
        <h3 id="upload-heading" className="font-medium">
          {t('bulk.uploadHeading')}
        </h3>
        <div className="flex flex-wrap items-center gap-3 rounded-lg border border-dashed p-4">
          <FileSpreadsheetIcon aria-hidden className="size-8 text-muted-foreground" />
          <div className="flex flex-1 flex-col gap-1">
            <label htmlFor={inputId} className="text-sm font-medium">
              {t('bulk.fileLabel')}
            </label>
            <p className="text-xs text-muted-foreground">{t('bulk.fileHint')}</p>
          </div>
          <input
            ref={inputRef}
            id={inputId}
            type="file"
            accept={ACCEPT}
            className="w-full min-w-0 max-w-full text-sm file:mr-3 file:rounded-md file:border file:bg-background file:px-3 file:py-1.5 file:text-sm"
            disabled={preview.isPending || importFile.isPending}
            onChange={(event) => choose(event.currentTarget.files?.[0])}
          />
        </div>
        {fileProblem && (
          <p role="alert" className="text-sm text-destructive">
            {t(`bulk.${fileProblem}`)}
          </p>
        )}
        {preview.isPending && (
          <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
            <Spinner />
            {t('bulk.checking')}
          </p>
        )}
        {preview.isError && (
          <Alert variant="destructive">
            <TriangleAlertIcon aria-hidden />
            <AlertTitle>{t('bulk.checkFailed')}</AlertTitle>
            <AlertDescription>
              <p>{getErrorMessage(preview.error, t('bulk.tryAgain'))}</p>
            </AlertDescription>
          </Alert>
        )}
      </section>

      {preview.data && (
        <PreviewSection
          preview={preview.data}
          isImporting={importFile.isPending}
          isDownloading={isDownloading}
          onImport={runImport}
          onDownloadReport={() => void downloadReport()}
        />
      )}

      {result && <ImportSummary result={result} onStartOver={startOver} />}
    </div>
  );
}

function PreviewSection({
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
function ImportSummary({ result, onStartOver }: { result: ImportResult; onStartOver: () => void }) {
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
