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

import { usePendingRequests } from '../api/incoming-requests';
import { useSites } from '@/lib/api/sites';

import { ProcessEntryDialog } from './process-entry-dialog';
import { fullName } from './process-entry';

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
      <PageHeader
        title="Incoming Feed"
        description="Vehicle entries sent by external systems, waiting to be completed."
      />
      <SitePicker
        id="incoming-feed-site"
        sites={sites.data ?? []}
        value={siteId}
        onChange={setSiteId}
      />
      <div className="grid gap-4 sm:grid-cols-3">
        <SummaryCard title="Pending Processing" value={summary.pending} testId="pending-count" />
        <SummaryCard title="Processed" value={summary.processed} testId="processed-count" />
        <SummaryCard title="Total Requests" value={summary.total} testId="total-count" />
      </div>
      <Card>
        <CardHeader>
          <CardTitle>Incoming Requests</CardTitle>
          <CardDescription>Refreshes every 5 seconds.</CardDescription>
        </CardHeader>
        <CardContent>
          {requests.isPending ? (
            <LoadingScreen label="Loading requests..." />
          ) : requests.isError && entries.length === 0 ? (
            <p role="alert" className="text-sm text-destructive">
              {getErrorMessage(requests.error, 'Failed to load requests')}
            </p>
          ) : entries.length === 0 ? (
            <p className="py-6 text-center text-sm text-muted-foreground">No pending requests</p>
          ) : (
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>Timestamp</TableHead>
                  <TableHead>Plate Number</TableHead>
                  <TableHead>Driver Name</TableHead>
                  <TableHead>ID Number</TableHead>
                  <TableHead>Transport</TableHead>
                  <TableHead>Reference</TableHead>
                  <TableHead>Status</TableHead>
                  <TableHead>Action</TableHead>
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
                            <span className="font-sans text-muted-foreground">No plate</span>
                          ))
                        )}
                      </TableCell>
                      <TableCell>
                        {fullName(entry.driverName, entry.driverSurname) || '-'}
                      </TableCell>
                      <TableCell>{entry.driverIdNumber ?? '-'}</TableCell>
                      <TableCell>{entry.transportName ?? disk.transporterName ?? '-'}</TableCell>
                      <TableCell>{entry.referenceNumber ?? disk.visitId ?? 'N/A'}</TableCell>
                      <TableCell>
                        <Badge variant={complete ? 'success' : 'secondary'}>
                          {complete ? 'Complete' : 'Incomplete'}
                        </Badge>
                      </TableCell>
                      <TableCell>
                        <Button
                          size="sm"
                          variant={complete ? 'outline' : 'default'}
                          onClick={() => setSelected(entry)}
                        >
                          {complete ? 'Edit' : 'Process'}
                        </Button>
                      </TableCell>
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
          )}
          <LoadMore query={requests} failure="Failed to load more requests" />
        </CardContent>
      </Card>
      {selected && (
        <ProcessEntryDialog key={selected.id} entry={selected} onClose={() => setSelected(null)} />
      )}
    </div>
  );
}
