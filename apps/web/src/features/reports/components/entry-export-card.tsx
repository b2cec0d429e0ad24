import { DownloadIcon } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';

import { type ExportEntryLogsQuery, ExportEntryLogsQuerySchema } from '@boomgate/contracts/exports';

import { SelectField } from '@/components/select-field';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Progress } from '@/components/ui/progress';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api-client';
import { saveBlob } from '@/lib/save-blob';

import { type ExportProgress, downloadEntryExport } from '../api/export-entries';

type ExportForm = { format: 'csv' | 'xlsx' };

/** The page's range: the report on screen and the export cover the same days and site. */
export type ExportRange = { from: string; to: string; siteId: string };

const FORMAT_OPTIONS = [
  { value: 'csv', label: 'CSV' },
  { value: 'xlsx', label: 'Excel (XLSX)' },
] as const;

function progressText({ rows, total, bytes }: ExportProgress): string {
  const kilobytes = `${Math.round(bytes / 1024).toLocaleString()} KB`;
  return rows === null
    ? `${kilobytes} of ${total.toLocaleString()} entries received`
    : `${rows.toLocaleString()} of ${total.toLocaleString()} entries (${kilobytes})`;
}

/** Issue 23: entries of a date range (site days, both inclusive) as CSV or XLSX, with progress. */
export function EntryExportCard({ range }: { range: ExportRange }) {
  const form = useForm<ExportForm>({ defaultValues: { format: 'csv' } });
  const [rangeError, setRangeError] = useState<string | null>(null);
  const [progress, setProgress] = useState<ExportProgress | null>(null);
  const [isExporting, setExporting] = useState(false);

  const exportEntries = async (values: ExportForm) => {
    const parsed = ExportEntryLogsQuerySchema.safeParse({
      ...values,
      from: range.from,
      to: range.to,
      siteId: range.siteId || undefined,
    });
    setRangeError(parsed.success ? null : (parsed.error.issues[0]?.message ?? null));
    if (!parsed.success) return;
    const query: ExportEntryLogsQuery = parsed.data;
    setExporting(true);
    setProgress({ rows: 0, total: 0, bytes: 0 });
    try {
      const file = await downloadEntryExport(query, setProgress);
      saveBlob(file, `entries-${query.from}-to-${query.to}.${query.format}`);
    } catch (error) {
      toast({
        variant: 'destructive',
        title: 'Export Failed',
        description: getErrorMessage(error, 'Failed to export entries'),
      });
    } finally {
      setExporting(false);
    }
  };

  const percent =
    progress?.rows != null && progress.total > 0
      ? Math.min(100, (progress.rows / progress.total) * 100)
      : undefined;

  return (
    <Card>
      <CardHeader>
        <CardTitle>Export Entries</CardTitle>
        <CardDescription>
          Every entry of the report's days (both included) and site, with ID numbers masked.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form
          aria-label="Export entries"
          className="grid gap-4 sm:grid-cols-3"
          onSubmit={(event) => void form.handleSubmit(exportEntries)(event)}
        >
          <SelectField
            control={form.control}
            name="format"
            id="export-format"
            label="Format"
            options={FORMAT_OPTIONS}
          />
          <div className="flex flex-col gap-3 sm:col-span-3">
            {rangeError && (
              <p role="alert" className="text-sm text-destructive">
                {rangeError}
              </p>
            )}
            <Button type="submit" className="self-start" disabled={isExporting}>
              {isExporting ? <Spinner /> : <DownloadIcon aria-hidden />}
              {isExporting ? 'Exporting...' : 'Download'}
            </Button>
            {progress && (
              <div className="flex flex-col gap-1" aria-live="polite">
                <Progress
                  value={percent ?? (isExporting ? undefined : 100)}
                  aria-label="Export progress"
                />
                <p className="text-sm text-muted-foreground">
                  {isExporting ? progressText(progress) : `Done: ${progressText(progress)}`}
                </p>
              </div>
            )}
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
