import { DownloadIcon, ScrollTextIcon } from 'lucide-react';
import { useState } from 'react';
import { useLocation, useSearch } from 'wouter';

import { type AuditEventFilters, AuditEventFiltersSchema } from '@boomgate/contracts/audit';

import { LoadMore } from '@/components/load-more';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { LoadingScreen, Spinner } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api-client';
import { useTranslation } from '@/lib/i18n';
import { saveBlob } from '@/lib/save-blob';

import { downloadAuditExport, useAuditEvents } from '../api/get-audit-events';

import { AuditEventsTable } from './audit-events-table';
import { AuditFilters } from './audit-filters';

/** The filters kept in the address, so a filtered view can be linked and survives a reload. */
function filtersFromSearch(search: string): AuditEventFilters {
  const parsed = AuditEventFiltersSchema.safeParse(
    Object.fromEntries(new URLSearchParams(search).entries()),
  );
  return parsed.success ? parsed.data : {};
}

function ExportButton({ filters }: { filters: AuditEventFilters }) {
  const { t } = useTranslation('audit');
  const [isExporting, setExporting] = useState(false);
  const exportView = async () => {
    setExporting(true);
    try {
      saveBlob(await downloadAuditExport(filters), 'audit-log.csv');
    } catch (error) {
      toast({
        variant: 'destructive',
        title: t('exportFailed'),
        description: getErrorMessage(error, t('exportFailedDetail')),
      });
    } finally {
      setExporting(false);
    }
  };
  return (
    <Button variant="outline" disabled={isExporting} onClick={() => void exportView()}>
      {isExporting ? <Spinner /> : <DownloadIcon aria-hidden />}
      {t('export')}
    </Button>
  );
}

/**
 * Issue 23: the audit log viewer. Who did what, about what and when; filters in the address;
 * each read and export is itself recorded by the server.
 */
export function AuditLog() {
  const { t } = useTranslation('audit');
  const search = useSearch();
  const [, navigate] = useLocation();
  const filters = filtersFromSearch(search);
  const events = useAuditEvents(filters);
  const setFilters = (next: AuditEventFilters) =>
    navigate(`?${new URLSearchParams(next as Record<string, string>).toString()}`);

  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-6">
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={<ExportButton filters={filters} />}
      />
      <Card>
        <CardContent>
          <AuditFilters value={filters} onChange={setFilters} />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>{t('events')}</CardTitle>
          <CardDescription>{t('newestFirst')}</CardDescription>
        </CardHeader>
        <CardContent>
          {events.isPending ? (
            <LoadingScreen label={t('loading')} />
          ) : events.isError && !events.data ? (
            <p role="alert" className="text-sm text-destructive">
              {getErrorMessage(events.error, t('loadFailed'))}
            </p>
          ) : events.data.pages[0]?.events.length === 0 ? (
            <div className="flex flex-col items-center gap-2 py-10 text-center">
              <ScrollTextIcon aria-hidden className="size-10 text-muted-foreground" />
              <p className="font-semibold">{t('none')}</p>
            </div>
          ) : (
            <>
              <AuditEventsTable
                events={events.data.pages.flatMap((page) => page.events)}
                onShowTarget={(targetId) => setFilters({ targetId })}
              />
              <LoadMore query={events} failure={t('loadMoreFailed')} />
            </>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
