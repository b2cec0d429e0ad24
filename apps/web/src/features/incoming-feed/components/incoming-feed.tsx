import { useState } from 'react';
import { Link } from 'wouter';

import { type IncomingRequestEntry, parseExtractedDiskData } from '@boomgate/contracts/webhooks';

import { LoadMore } from '@/components/load-more';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { SitePicker } from '@/components/site-picker';
import { PageHeader } from '@/components/ui/page-header';
import { LoadingScreen } from '@/components/ui/spinner';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { paths } from '@/config/paths';
import { getErrorMessage } from '@/lib/api-client';
import { formatDate, formatTime } from '@/lib/format';
import { useTranslation } from '@/lib/i18n';

import { usePendingRequests } from '../api/incoming-requests';
import { useSites } from '@/lib/api/sites';

import { IncomingWarnings } from './incoming-warnings';
import { ProcessEntryDialog } from './process-entry-dialog';
import { fullName } from './process-entry';

const COLUMNS = [
  'timestamp',
  'plateNumber',
  'driverName',
  'idNumber',
  'transport',
  'reference',
  'status',
  'action',
] as const;

const isProcessed = (entry: IncomingRequestEntry) =>
  Boolean(entry.driverName?.trim() && entry.driverIdNumber?.trim());

function SummaryCard({ title, value, testId }: { title: string; value: number; testId: string }) {
  return (
    <Card>
      <CardHeader className="pb-2">
        <CardDescription>{title}</CardDescription>
        <CardTitle className="text-3xl" data-testid={testId}>
          {value}
        </CardTitle>
      </CardHeader>
    </Card>
  );
}

/** Spec §2 Incoming Feed: entries sent by external systems, polled every 5 seconds. */
export function IncomingFeed() {
  const { t } = useTranslation('incomingFeed');
  const sites = useSites();
  const [siteId, setSiteId] = useState<string | undefined>();
  const requests = usePendingRequests(siteId);
  const [selected, setSelected] = useState<IncomingRequestEntry | null>(null);
  const pages = requests.data?.pages ?? [];
  const entries = pages.flatMap((page) => page.entries);
  // The cards count every entry on the server, sent with the first (newest) page.
  const summary = pages[0]?.summary ?? { pending: 0, processed: 0, total: 0 };

  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-6">
      <PageHeader title={t('title')} description={t('description')} />
      <SitePicker
        id="incoming-feed-site"
        sites={sites.data ?? []}
        value={siteId}
        onChange={setSiteId}
      />
      <div className="grid gap-4 sm:grid-cols-3">
        <SummaryCard title={t('summary.pending')} value={summary.pending} testId="pending-count" />
        <SummaryCard
          title={t('summary.processed')}
          value={summary.processed}
          testId="processed-count"
        />
        <SummaryCard title={t('summary.total')} value={summary.total} testId="total-count" />
      </div>
      <Card>
        <CardHeader>
          <CardTitle>{t('requests.title')}</CardTitle>
          <CardDescription>{t('requests.refreshes')}</CardDescription>
        </CardHeader>
        <CardContent>
          {requests.isPending ? (
            <LoadingScreen label={t('requests.loading')} />
          ) : requests.isError && entries.length === 0 ? (
            <p role="alert" className="text-sm text-destructive">
              {getErrorMessage(requests.error, t('requests.loadFailed'))}
            </p>
          ) : entries.length === 0 ? (
            <p className="py-6 text-center text-sm text-muted-foreground">{t('requests.empty')}</p>
          ) : (
            <Table>
              <TableHeader>
                <TableRow>
                  {COLUMNS.map((column) => (
                    <TableHead key={column}>{t(`columns.${column}`)}</TableHead>
                  ))}
                </TableRow>
              </TableHeader>
              <TableBody>
                {entries.map((entry) => {
                  const disk = parseExtractedDiskData(entry.extractedDiskData);
                  const complete = isProcessed(entry);
                  return (
                    <TableRow key={entry.id} data-testid="request-row">
                      <TableCell>
                        <div>{formatDate(entry.timestamp)}</div>
                        <div className="text-xs text-muted-foreground">
                          {formatTime(entry.timestamp)}
                        </div>
                      </TableCell>
                      <TableCell className="font-mono">
                        {/* Issue 15: a processed request whose vehicle came in opens that entry. */}
                        {entry.plateNumber && entry.entryLogId ? (
                          <Link
                            href={paths.entryLog(entry.entryLogId)}
                            className="underline-offset-2 hover:underline"
                          >
                            {entry.plateNumber}
                          </Link>
                        ) : (
                          (entry.plateNumber ?? (
                            <span className="font-sans text-muted-foreground">{t('noPlate')}</span>
                          ))
                        )}
                      </TableCell>
                      <TableCell>
                        {fullName(entry.driverName, entry.driverSurname) || '-'}
                      </TableCell>
                      <TableCell>{entry.driverIdNumber ?? '-'}</TableCell>
                      <TableCell>{entry.transportName ?? disk.transporterName ?? '-'}</TableCell>
                      <TableCell>
                        {entry.referenceNumber ?? disk.visitId ?? t('notApplicable')}
                      </TableCell>
                      <TableCell>
                        <Badge variant={complete ? 'success' : 'secondary'}>
                          {complete ? t('complete') : t('incomplete')}
                        </Badge>
                        {/* Issue 21: the warnings its completion was accepted with. */}
                        <IncomingWarnings warnings={entry.warnings} />
                      </TableCell>
                      <TableCell>
                        <Button
                          size="sm"
                          variant={complete ? 'outline' : 'default'}
                          onClick={() => setSelected(entry)}
                        >
                          {complete ? t('edit') : t('process')}
                        </Button>
                      </TableCell>
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
          )}
          <LoadMore query={requests} failure={t('requests.loadMoreFailed')} />
        </CardContent>
      </Card>
      {selected && (
        <ProcessEntryDialog key={selected.id} entry={selected} onClose={() => setSelected(null)} />
      )}
    </div>
  );
}
