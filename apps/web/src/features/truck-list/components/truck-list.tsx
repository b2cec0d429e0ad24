import { CalendarClockIcon, ClipboardListIcon, type LucideIcon, TruckIcon } from 'lucide-react';
import type { ReactNode } from 'react';

import type { TruckListEntry, TruckListSummary } from '@boomgate/contracts/truck-list';

import { LoadMore } from '@/components/load-more';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
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
import { getErrorMessage } from '@/lib/api-client';
import { formatDate, formatTime } from '@/lib/format';
import { formatPlate } from '@/lib/plates';

import { useTruckList } from '../api/get-truck-list';

/** Spec §2: a missing value shows a dash. */
const DASH = '-';

function SummaryCard({
  title,
  value,
  icon: Icon,
}: {
  title: string;
  value: number;
  icon: LucideIcon;
}) {
  return (
    <Card className="gap-2 py-5">
      <CardHeader className="flex-row items-center justify-between gap-2 px-5">
        <CardTitle className="text-sm font-medium">{title}</CardTitle>
        <Icon aria-hidden className="size-4 text-muted-foreground" />
      </CardHeader>
      <CardContent className="px-5">
        <p className="text-2xl font-bold" data-testid={`summary-${title}`}>
          {value}
        </p>
      </CardContent>
    </Card>
  );
}

function TruckTable({ entries }: { entries: TruckListEntry[] }) {
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>Date/Time</TableHead>
          <TableHead>Truck Number</TableHead>
          <TableHead>Plate</TableHead>
          <TableHead className="hidden md:table-cell">Category</TableHead>
          <TableHead className="hidden lg:table-cell">Transport</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {entries.map((entry) => (
          <TableRow key={entry.id} data-testid="truck-row">
            <TableCell>
              <div className="font-medium">{formatDate(entry.timestamp)}</div>
              <div className="text-xs text-muted-foreground">{formatTime(entry.timestamp)}</div>
            </TableCell>
            <TableCell>{entry.truckNumber?.trim() || DASH}</TableCell>
            <TableCell className="font-mono">
              {entry.plateNumber ? formatPlate(entry.plateNumber) : DASH}
            </TableCell>
            <TableCell className="hidden md:table-cell">
              <Badge variant={entry.category === 'contracted' ? 'default' : 'outline'}>
                {entry.category}
              </Badge>
            </TableCell>
            <TableCell className="hidden lg:table-cell">
              {entry.transportName?.trim() || DASH}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/**
 * Spec §2 Truck List: trucks read by the number-plate camera. The server sends the list a page at
 * a time (newest first) and the cards over every read in the first page's headers.
 */
export function TruckList() {
  const trucks = useTruckList();

  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-6">
      <PageHeader title="Truck List" description="Trucks read by the number-plate camera." />
      {trucks.isPending ? (
        <LoadingScreen label="Loading truck data..." />
      ) : trucks.isError && !trucks.data ? (
        <p role="alert" className="text-sm text-destructive">
          {getErrorMessage(trucks.error, 'Failed to load truck data')}
        </p>
      ) : (
        <TruckListBody
          summary={trucks.data.pages[0]!.summary}
          entries={trucks.data.pages.flatMap((page) => page.entries)}
          loadMore={<LoadMore query={trucks} failure="Failed to load more trucks" />}
        />
      )}
    </div>
  );
}

function TruckListBody({
  summary,
  entries,
  loadMore,
}: {
  summary: TruckListSummary;
  entries: TruckListEntry[];
  loadMore: ReactNode;
}) {
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-3">
        <SummaryCard title="Total Trucks" value={summary.total} icon={TruckIcon} />
        <SummaryCard
          title="With Order Number"
          value={summary.withOrderNumber}
          icon={ClipboardListIcon}
        />
        <SummaryCard
          title="Today's Arrivals"
          value={summary.todaysArrivals}
          icon={CalendarClockIcon}
        />
      </div>
      <Card>
        <CardHeader>
          <CardTitle>Recent Truck Entries</CardTitle>
          <CardDescription>Newest first, as the number-plate camera reported them.</CardDescription>
        </CardHeader>
        <CardContent>
          {entries.length === 0 ? (
            <div className="flex flex-col items-center gap-2 py-10 text-center">
              <TruckIcon aria-hidden className="size-10 text-muted-foreground" />
              <p className="font-semibold">No Trucks Yet</p>
              <p className="text-sm text-muted-foreground">
                Trucks appear here when the number-plate camera reads them.
              </p>
            </div>
          ) : (
            <>
              <TruckTable entries={entries} />
              {loadMore}
            </>
          )}
        </CardContent>
      </Card>
    </>
  );
}
