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
import { formatNumber } from '@/lib/format';
import { type TFunction, useTranslation } from '@/lib/i18n';
import { saveBlob } from '@/lib/save-blob';

import { type ExportProgress, downloadEntryExport } from '../api/export-entries';

type ExportForm = { format: 'csv' | 'xlsx' };

/** The page's range: the report on screen and the export cover the same days and site. */
export type ExportRange = { from: string; to: string; siteId: string };

function progressText(t: TFunction<'reports'>, { rows, total, bytes }: ExportProgress): string {
  const kilobytes = formatNumber(Math.round(bytes / 1024));
  return rows === null
    ? t('export.received', { kilobytes, total: formatNumber(total) })
    : t('export.rows', { rows: formatNumber(rows), total: formatNumber(total), kilobytes });
}

/** Issue 23: entries of a date range (site days, both inclusive) as CSV or XLSX, with progress. */
export function EntryExportCard({ range }: { range: ExportRange }) {
  const { t } = useTranslation('reports');
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
        title: t('export.failed'),
        description: getErrorMessage(error, t('export.failedDetail')),
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
        <CardTitle>{t('export.title')}</CardTitle>
        <CardDescription>{t('export.description')}</CardDescription>
      </CardHeader>
      <CardContent>
        <form
          aria-label={t('export.formLabel')}
          className="grid gap-4 sm:grid-cols-3"
          onSubmit={(event) => void form.handleSubmit(exportEntries)(event)}
        >
          <SelectField
            control={form.control}
            name="format"
            id="export-format"
            label={t('export.format')}
            options={[
              { value: 'csv', label: 'CSV' },
              { value: 'xlsx', label: t('export.excel') },
            ]}
          />
          <div className="flex flex-col gap-3 sm:col-span-3">
            {rangeError && (
              <p role="alert" className="text-sm text-destructive">
                {rangeError}
              </p>
            )}
            <Button type="submit" className="self-start" disabled={isExporting}>
              {isExporting ? <Spinner /> : <DownloadIcon aria-hidden />}
              {isExporting ? t('export.exporting') : t('export.download')}
            </Button>
            {progress && (
              <div className="flex flex-col gap-1" aria-live="polite">
                <Progress
                  value={percent ?? (isExporting ? undefined : 100)}
                  aria-label={t('export.progress')}
                />
                <p className="text-sm text-muted-foreground">
                  {isExporting
                    ? progressText(t, progress)
                    : t('export.done', { progress: progressText(t, progress) })}
                </p>
              </div>
            )}
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
