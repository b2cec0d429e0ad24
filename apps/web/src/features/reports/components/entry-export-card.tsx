import { DownloadIcon } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';

import { type ExportEntryLogsQuery, ExportEntryLogsQuerySchema } from '@boomgate/contracts/exports';

import { SelectField } from '@/components/select-field';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Progress } from '@/components/ui/progress';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api-client';
import { saveBlob } from '@/lib/save-blob';

import { type ExportProgress, downloadEntryExport } from '../api/export-entries';

type ExportForm = { from: string; to: string; format: 'csv' | 'xlsx' };

const FORMAT_OPTIONS = [
  { value: 'csv', label: 'CSV' },
  { value: 'xlsx', label: 'Excel (XLSX)' },
] as const;

/** Today and a week back, as YYYY-MM-DD in the browser's zone (the site's day at a SA gate). */
function lastSevenDays(): ExportForm {
  const day = (date: Date) => date.toLocaleDateString('en-CA');
  const weekAgo = new Date();
  weekAgo.setDate(weekAgo.getDate() - 6);
  return { from: day(weekAgo), to: day(new Date()), format: 'csv' };
}

function progressText({ rows, total, bytes }: ExportProgress): string {
  const kilobytes = `${Math.round(bytes / 1024).toLocaleString()} KB`;
  return rows === null
    ? `${kilobytes} of ${total.toLocaleString()} entries received`
    : `${rows.toLocaleString()} of ${total.toLocaleString()} entries (${kilobytes})`;
}

/** Issue 23: entries of a date range (site days, both inclusive) as CSV or XLSX, with progress. */
export function EntryExportCard() {
  const form = useForm<ExportForm>({ defaultValues: lastSevenDays() });
  const { errors } = form.formState;
  const [progress, setProgress] = useState<ExportProgress | null>(null);
  const [isExporting, setExporting] = useState(false);

  const exportEntries = async (values: ExportForm) => {
    const parsed = ExportEntryLogsQuerySchema.safeParse(values);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        form.setError(issue.path[0] as keyof ExportForm, { message: issue.message });
      }
      return;
    }
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
          Every entry of the chosen days (both included), with ID numbers masked.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form
          aria-label="Export entries"
          className="grid gap-4 sm:grid-cols-3"
          onSubmit={(event) => void form.handleSubmit(exportEntries)(event)}
        >
          <Field id="export-from" label="From" error={errors.from?.message}>
            <Input id="export-from" type="date" required {...form.register('from')} />
          </Field>
          <Field id="export-to" label="To" error={errors.to?.message}>
            <Input
              id="export-to"
              type="date"
              required
              aria-invalid={Boolean(errors.to)}
              {...form.register('to')}
            />
          </Field>
          <SelectField
            control={form.control}
            name="format"
            id="export-format"
            label="Format"
            options={FORMAT_OPTIONS}
          />
          <div className="flex flex-col gap-3 sm:col-span-3">
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
