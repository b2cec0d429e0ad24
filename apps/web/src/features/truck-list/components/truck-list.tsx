import { CalendarClockIcon, ClipboardListIcon, type LucideIcon, TruckIcon } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Link } from 'wouter';

import type { TruckListEntry, TruckListSummary } from '@boomgate/contracts/truck-list';

import { LoadMore } from '@/components/load-more';
import { Badge } from '@/components/ui/badge';
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
import { formatPlate } from '@/lib/plates';
import { useSites } from '@/lib/api/sites';

import { useTruckList } from '../api/get-truck-list';

/** Spec §2: a missing value shows a dash. */
const DASH = '-';

function SummaryCard({
  id,
  title,
  value,
  icon: Icon,
}: {
  /** The English title (`summary-Total Trucks`): the test id is the same in every language. */
  id: string;
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
        <p className="text-2xl font-bold" data-testid={`summary-${id}`}>
          {value}
        </p>
      </CardContent>
    </Card>
  );
}

function TruckTable({ entries }: { entries: TruckListEntry[] }) {
  const { t } = useTranslation('trucks');
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>{t('columns.dateTime')}</TableHead>
          <TableHead>{t('columns.truckNumber')}</TableHead>
          <TableHead>{t('columns.plate')}</TableHead>
          <TableHead className="hidden md:table-cell">{t('columns.category')}</TableHead>
          <TableHead className="hidden lg:table-cell">{t('columns.transport')}</TableHead>
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
              {/* Issue 15: a read the gate recorded an entry for opens that entry's evidence. */}
              {entry.plateNumber && entry.entryLogId ? (
                <Link
                  href={paths.entryLog(entry.entryLogId)}
                  className="underline-offset-2 hover:underline"
                >
                  {formatPlate(entry.plateNumber)}
                </Link>
              ) : entry.plateNumber ? (
                formatPlate(entry.plateNumber)
              ) : (
                DASH
              )}
              {/* Issue 21: a rig shows its trailers as its entry recorded them. */}
              {entry.trailerPlates.length > 0 && (
                <div className="text-xs text-muted-foreground" data-testid="truck-trailers">
                  + {entry.trailerPlates.map((plate) => formatPlate(plate)).join(', ')}
                </div>
              )}
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
  const sites = useSites();
  const [siteId, setSiteId] = useState<string | undefined>();
  const trucks = useTruckList(siteId);
  const { t } = useTranslation('trucks');

  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-6">
      <PageHeader title={t('title')} description={t('description')} />
      <SitePicker
        id="truck-list-site"
        sites={sites.data ?? []}
        value={siteId}
        onChange={setSiteId}
      />
      {trucks.isPending ? (
        <LoadingScreen label={t('loading')} />
      ) : trucks.isError && !trucks.data ? (
        <p role="alert" className="text-sm text-destructive">
          {getErrorMessage(trucks.error, t('loadFailed'))}
        </p>
      ) : (
        <TruckListBody
          summary={trucks.data.pages[0]!.summary}
          entries={trucks.data.pages.flatMap((page) => page.entries)}
          loadMore={<LoadMore query={trucks} failure={t('loadMoreFailed')} />}
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
  const { t } = useTranslation('trucks');
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-3">
        <SummaryCard
          id="Total Trucks"
          title={t('totalTrucks')}
          value={summary.total}
          icon={TruckIcon}
        />
        <SummaryCard
          id="With Order Number"
          title={t('withOrderNumber')}
          value={summary.withOrderNumber}
          icon={ClipboardListIcon}
        />
        <SummaryCard
          id="Today's Arrivals"
          title={t('todaysArrivals')}
          value={summary.todaysArrivals}
          icon={CalendarClockIcon}
        />
      </div>
      <Card>
        <CardHeader>
          <CardTitle>{t('recentEntries')}</CardTitle>
          <CardDescription>{t('newestFirst')}</CardDescription>
        </CardHeader>
        <CardContent>
          {entries.length === 0 ? (
            <div className="flex flex-col items-center gap-2 py-10 text-center">
              <TruckIcon aria-hidden className="size-10 text-muted-foreground" />
              <p className="font-semibold">{t('emptyTitle')}</p>
              <p className="text-sm text-muted-foreground">{t('emptyDescription')}</p>
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
