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
import { contractMessage, useTranslation } from '@/lib/i18n';
import { saveBlob } from '@/lib/save-blob';

import {
  EXPORT_KINDS,
  type ExportKind,
  type ExportProgress,
  downloadExport,
} from '../api/export-entries';

type ExportForm = { kind: ExportKind; format: 'csv' | 'xlsx' };

/** The page's range: the report on screen and the export cover the same days and site. */
export type ExportRange = { from: string; to: string; siteId: string };

const FORMAT_OPTIONS = [
  { value: 'csv', label: 'CSV' },
  { value: 'xlsx', label: 'Excel (XLSX)' },
] as const;

type Translate = ReturnType<typeof useTranslation>['t'];

function progressText(t: Translate, { rows, total, bytes }: ExportProgress): string {
  const kilobytes = Math.round(bytes / 1024).toLocaleString();
  return rows === null
    ? t('export.receivedBytes', { kilobytes, total: total.toLocaleString() })
    : t('export.receivedRows', {
        rows: rows.toLocaleString(),
        total: total.toLocaleString(),
        kilobytes,
      });
}

/**
 * Issue 23: entries, refusals, watchlist hits or weighbridge tickets of a date range (site days,
 * both inclusive) as CSV or XLSX, with progress.
 */
export function EntryExportCard({ range }: { range: ExportRange }) {
  const { t } = useTranslation('reports');
  const form = useForm<ExportForm>({ defaultValues: { kind: 'entries', format: 'csv' } });
  const kindOptions = (Object.keys(EXPORT_KINDS) as ExportKind[]).map((kind) => ({
    value: kind,
    label: t(`export.kinds.${kind}`),
  }));
  const [rangeError, setRangeError] = useState<string | null>(null);
  const [progress, setProgress] = useState<ExportProgress | null>(null);
  const [isExporting, setExporting] = useState(false);

  const exportEntries = async ({ kind, ...values }: ExportForm) => {
    const parsed = ExportEntryLogsQuerySchema.safeParse({
      ...values,
      from: range.from,
      to: range.to,
      siteId: range.siteId || undefined,
    });
    setRangeError(
      parsed.success ? null : (contractMessage(parsed.error.issues[0]?.message) ?? null),
    );
    if (!parsed.success) return;
    const query: ExportEntryLogsQuery = parsed.data;
    setExporting(true);
    setProgress({ rows: 0, total: 0, bytes: 0 });
    try {
      const file = await downloadExport(kind, query, setProgress);
      saveBlob(file, `${EXPORT_KINDS[kind].fileStem}-${query.from}-to-${query.to}.${query.format}`);
    } catch (error) {
      toast({
        variant: 'destructive',
        title: t('export.failedTitle'),
        description: getErrorMessage(error, t('export.failed')),
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
        <CardTitle level={2}>{t('export.title')}</CardTitle>
        <CardDescription>{t('export.description')}</CardDescription>
      </CardHeader>
      <CardContent>
        <form
          aria-label={t('export.form')}
          className="grid gap-4 sm:grid-cols-3"
          onSubmit={(event) => void form.handleSubmit(exportEntries)(event)}
        >
          <SelectField
            control={form.control}
            name="kind"
            id="export-kind"
            label={t('export.kind')}
            options={kindOptions}
          />
          <SelectField
            control={form.control}
            name="format"
            id="export-format"
            label={t('export.format')}
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
