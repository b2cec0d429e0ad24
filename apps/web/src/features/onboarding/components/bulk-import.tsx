import { DownloadIcon, FileSpreadsheetIcon, TriangleAlertIcon } from 'lucide-react';
import { useId, useRef, useState } from 'react';

import { type ImportResult, MAX_IMPORT_FILE_BYTES } from '@boomgate/contracts/onboarding';

import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';
import { apiUrl, getErrorMessage } from '@/lib/api-client';
import { useTranslation } from '@/lib/i18n';
import { saveBlob } from '@/lib/save-blob';

import {
  downloadErrorReport,
  TEMPLATE_CSV_URL,
  TEMPLATE_XLSX_URL,
  useImportFile,
  usePreviewImport,
} from '../api/company-onboarding';

import { ImportSummary, PreviewSection, summaryOf } from './bulk-import-results';

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
