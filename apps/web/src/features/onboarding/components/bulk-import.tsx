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
  importFieldLabel,
  importSummary,
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

/** Spec §2/§9: CSV or XLSX up to 10MB. Checked here for a quick answer, and again on the server. */
export function checkBulkFile(file: Pick<File, 'name' | 'size'>): string | null {
  if (!/\.(csv|xlsx)$/i.test(file.name)) return 'Choose a CSV or XLSX file.';
  if (file.size > MAX_IMPORT_FILE_BYTES) return 'The file is larger than 10MB.';
  return null;
}

export const describeError = (error: ImportRowError) => {
  const label = importFieldLabel(error.field);
  return label ? `${label}: ${error.message}` : error.message;
};

/**
 * Bulk tab of company onboarding: download the template, choose a filled-in file, see every row
 * with its errors, import the valid rows, then the summary ("5 drivers and 3 vehicles") with the
 * rejected rows and why.
 */
export function BulkImport() {
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [fileProblem, setFileProblem] = useState<string | null>(null);
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
        toast({ title: 'Import Complete', description: `${done.summary} imported.` });
      },
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: 'Import Failed',
          description: getErrorMessage(error, 'The file could not be imported. Please try again.'),
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
        title: 'Download Failed',
        description: getErrorMessage(error, 'The error report could not be made.'),
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
          1. Download the template
        </h3>
        <p className="text-sm text-muted-foreground">
          One driver per row. Fields marked * are required. A plate number also approves that
          vehicle for entry (for three months unless you give an Approved Until date).
        </p>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" asChild>
            <a href={apiUrl(TEMPLATE_CSV_URL)} download>
              <DownloadIcon aria-hidden />
              CSV Template
            </a>
          </Button>
          <Button variant="outline" asChild>
            <a href={apiUrl(TEMPLATE_XLSX_URL)} download>
              <DownloadIcon aria-hidden />
              XLSX Template
            </a>
          </Button>
        </div>
      </section>

      <section
        aria-labelledby="upload-heading"
        className="grid min-w-0 grid-cols-1 gap-3 rounded-lg border p-4"
      >
        <h3 id="upload-heading" className="font-medium">
          2. Upload your file
        </h3>
        <div className="flex flex-wrap items-center gap-3 rounded-lg border border-dashed p-4">
          <FileSpreadsheetIcon aria-hidden className="size-8 text-muted-foreground" />
          <div className="flex flex-1 flex-col gap-1">
            <label htmlFor={inputId} className="text-sm font-medium">
              Drivers and vehicles file
            </label>
            <p className="text-xs text-muted-foreground">CSV or XLSX, up to 10MB</p>
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
            {fileProblem}
          </p>
        )}
        {preview.isPending && (
          <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
            <Spinner />
            Checking every row...
          </p>
        )}
        {preview.isError && (
          <Alert variant="destructive">
            <TriangleAlertIcon aria-hidden />
            <AlertTitle>The file could not be checked</AlertTitle>
            <AlertDescription>
              <p>{getErrorMessage(preview.error, 'Please try again.')}</p>
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
        3. Check and import
      </h3>
      <p data-testid="preview-summary" className="text-sm">
        {preview.fileName}: {preview.validRows} of {preview.totalRows} rows are ready to import (
        {importSummary(preview.drivers, preview.vehicles)}).
        {invalid > 0 && (
          <span className="text-destructive">
            {' '}
            {invalid} {invalid === 1 ? 'row has' : 'rows have'} errors and will not be imported.
          </span>
        )}
      </p>
      <div className="max-h-[480px] overflow-auto rounded-md border">
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>Row</TableHead>
              <TableHead>Driver</TableHead>
              <TableHead>ID Number</TableHead>
              <TableHead>Plate</TableHead>
              <TableHead>Status</TableHead>
              <TableHead>Problems</TableHead>
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
                    <Badge variant="success">Ready</Badge>
                  ) : (
                    <Badge variant="destructive">Error</Badge>
                  )}
                </TableCell>
                <TableCell className="whitespace-normal text-sm">
                  {row.errors.length > 0 && (
                    <ul className="grid gap-0.5 text-destructive">
                      {row.errors.map((error) => (
                        <li key={`${error.field}:${error.message}`}>{describeError(error)}</li>
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
          Showing {shown.length} of {preview.rows.length} rows, those with errors first. The import
          and the error report cover every row.
        </p>
      )}
      <div className="flex flex-wrap justify-end gap-2">
        {invalid > 0 && (
          <Button variant="outline" onClick={onDownloadReport} disabled={isDownloading}>
            <DownloadIcon aria-hidden />
            Download Error Report
          </Button>
        )}
        <Button onClick={onImport} disabled={preview.validRows === 0 || isImporting}>
          {isImporting ? <Spinner /> : <UploadIcon aria-hidden />}
          {isImporting
            ? 'Importing...'
            : `Import ${preview.validRows} ${preview.validRows === 1 ? 'Row' : 'Rows'}`}
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
  const rejected = result.rejected;
  return (
    <Alert variant={rejected.length > 0 ? 'warning' : 'success'} data-testid="import-result">
      <CheckCircle2Icon aria-hidden />
      <AlertTitle>Import complete</AlertTitle>
      <AlertDescription>
        <p>{result.summary} imported.</p>
        {rejected.length > 0 && (
          <>
            <p>
              {rejected.length} {rejected.length === 1 ? 'row was' : 'rows were'} rejected:
            </p>
            <ul className="list-disc pl-4">
              {rejected.slice(0, 20).map((row) => (
                <li key={row.rowNumber}>
                  Row {row.rowNumber}: {row.errors.map(describeError).join(' ')}
                </li>
              ))}
            </ul>
            {rejected.length > 20 && <p>and {rejected.length - 20} more.</p>}
          </>
        )}
        <div className="mt-2 flex flex-wrap gap-2">
          <Button variant="outline" size="sm" onClick={onStartOver}>
            Upload Another File
          </Button>
        </div>
      </AlertDescription>
    </Alert>
  );
}
