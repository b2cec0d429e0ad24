import {
  ActivityIcon,
  CarIcon,
  CheckCircle2Icon,
  ClipboardListIcon,
  GaugeIcon,
  ListChecksIcon,
  type LucideIcon,
  MinusIcon,
  ScanFaceIcon,
  ServerIcon,
  UsersIcon,
} from 'lucide-react';
import { Link } from 'wouter';

import { useState } from 'react';

import type { Dashboard, EntryLog } from '@boomgate/contracts/entry-logs';

import { OverrideEntryButton, OverrideNote } from '@/components/entry-override';
import { RefusedMark } from '@/components/entry-warnings';
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
import { useSites } from '@/lib/api/sites';
import { formatDate, formatTime } from '@/lib/format';
import { useTranslation } from '@/lib/i18n';

import { useDashboard } from '../api/get-dashboard';
import { ArrivalsToday } from './arrivals-today';

/** Spec §9: the performance figure is fixed at 98% once there are entries. */
const PERFORMANCE_WITH_ENTRIES = '98%';

function StatCard({
  id,
  title,
  value,
  detail,
  icon: Icon,
}: {
  /** The English title's test id (`stat-total-entries`), the same in every language. */
  id: string;
  title: string;
  value: string;
  detail: string;
  icon: LucideIcon;
}) {
  return (
    <Card className="gap-2 py-5" data-testid={`stat-${id}`}>
      <CardHeader className="flex-row items-center justify-between gap-2 px-5">
        <CardTitle className="text-sm font-medium">{title}</CardTitle>
        <Icon aria-hidden className="size-4 text-muted-foreground" />
      </CardHeader>
      <CardContent className="px-5">
        <p className="text-2xl font-bold">{value}</p>
        <p className="text-xs text-muted-foreground">{detail}</p>
      </CardContent>
    </Card>
  );
}

const percent = (value: number) => `${value}%`;

/** Spec §2: plateNumber, else extractedPlate, else N/A. */
export function entryPlate(entry: Pick<EntryLog, 'plateNumber' | 'extractedPlate'>) {
  return entry.plateNumber || entry.extractedPlate || 'N/A';
}

function StatCards({ data }: { data: Dashboard }) {
  const { t } = useTranslation('dashboard');
  return (
    <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
      <StatCard
        id="total-entries"
        title={t('totalEntries')}
        value={String(data.totalEntries)}
        detail={t('today', { count: data.todayEntries })}
        icon={ClipboardListIcon}
      />
      <StatCard
        id="approval-rate"
        title={t('approvalRate')}
        value={percent(data.approvalRate)}
        detail={t('granted', { granted: data.grantedEntries, total: data.totalEntries })}
        icon={CheckCircle2Icon}
      />
      <StatCard
        id="verification-rate"
        title={t('verificationRate')}
        value={percent(data.verificationRate)}
        detail={t('faceVerified', {
          verified: data.faceVerifiedEntries,
          total: data.totalEntries,
        })}
        icon={ScanFaceIcon}
      />
      <StatCard
        id="registered-vehicles"
        title={t('registeredVehicles')}
        value={String(data.registeredVehicles)}
        detail={t('preApproved')}
        icon={CarIcon}
      />
      <StatCard
        id="system-users"
        title={t('systemUsers')}
        value={String(data.activeUsers)}
        detail={t('activeUsers')}
        icon={UsersIcon}
      />
      <StatCard
        id="processing-status"
        title={t('processingStatus')}
        value={t('operational')}
        detail={t('gateRunning')}
        icon={ServerIcon}
      />
      <StatCard
        id="performance"
        title={t('performance')}
        value={data.totalEntries > 0 ? PERFORMANCE_WITH_ENTRIES : t('common:notAvailable')}
        detail={t('recognitionAccuracy')}
        icon={GaugeIcon}
      />
      {data.onSiteNow === undefined ? null : (
        <StatCard
          id="on-site"
          title={t('onSite')}
          value={String(data.onSiteNow)}
          detail={t('onSiteDetail')}
          icon={ListChecksIcon}
        />
      )}
    </div>
  );
}

function RecentEntries({ entries, canOverride }: { entries: EntryLog[]; canOverride: boolean }) {
  const { t } = useTranslation('dashboard');
  if (entries.length === 0) {
    return <p className="py-8 text-center text-sm text-muted-foreground">{t('noEntries')}</p>;
  }
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>{t('columns.timestamp')}</TableHead>
          <TableHead>{t('columns.plateNumber')}</TableHead>
          <TableHead>{t('columns.category')}</TableHead>
          <TableHead>{t('columns.status')}</TableHead>
          <TableHead>{t('columns.faceVerified')}</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {entries.map((entry) => (
          <TableRow key={entry.id} data-testid="recent-entry">
            <TableCell>
              {formatDate(entry.timestamp)} {formatTime(entry.timestamp)}
            </TableCell>
            <TableCell className="font-mono font-medium">
              {/* Issue 15: each entry opens with its evidence. */}
              <Link href={paths.entryLog(entry.id)} className="underline-offset-2 hover:underline">
                {entryPlate(entry)}
              </Link>
              {/* Issue 21: a rig's trailers, with how many trailer discs were checked. */}
              {(entry.trailerPlates?.length ?? 0) > 0 && (
                <span
                  className="block text-xs text-muted-foreground"
                  data-testid="recent-entry-trailers"
                >
                  + {entry.trailerPlates?.join(', ')}
                  {(entry.trailerLicenceDiscIds?.length ?? 0) > 0 &&
                    ` (${entry.trailerLicenceDiscIds?.length} disc${entry.trailerLicenceDiscIds?.length === 1 ? '' : 's'})`}
                </span>
              )}
            </TableCell>
            <TableCell className="capitalize">{entry.category || 'visitor'}</TableCell>
            <TableCell>
              {/* Spec §4: the badge follows vehicleApproved; a refused attempt is marked beside it. */}
              <div className="flex flex-wrap items-center gap-1">
                {entry.vehicleApproved ? (
                  <Badge variant="success">{t('approved')}</Badge>
                ) : (
                  <Badge variant="secondary">{t('pending')}</Badge>
                )}
                {!entry.entryGranted && <RefusedMark reason={entry.refusalReason} />}
                {entry.warnings.some((warning) => warning.code === 'document_expired') && (
                  <Badge
                    variant="outline"
                    className="border-destructive text-destructive"
                    title={entry.warnings
                      .filter((warning) => warning.code === 'document_expired')
                      .map((warning) => warning.message)
                      .join(' ')}
                    data-testid="expired-document-mark"
                  >
                    {t('expiredDocument')}
                  </Badge>
                )}
                {/* Issue 21: a supervisor's override of a refusal, and who gave it and why. */}
                {canOverride && <OverrideEntryButton entry={entry} />}
              </div>
              <OverrideNote entry={entry} />
            </TableCell>
            <TableCell>
              {entry.faceVerified ? (
                <CheckCircle2Icon
                  role="img"
                  aria-label={t('isFaceVerified')}
                  className="size-5 text-success"
                />
              ) : (
                <MinusIcon
                  role="img"
                  aria-label={t('notFaceVerified')}
                  className="size-5 text-muted-foreground"
                />
              )}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/**
 * Spec §2 'System Dashboard': entry statistics and the latest ten entries. `canOverride`: the
 * user may override a refused entry (issue 21).
 */
export function SystemDashboard({
  canOverride = false,
  showArrivals = false,
}: {
  canOverride?: boolean;
  /** Issue 23: the arrivals-today chart, for those who may see reports. */
  showArrivals?: boolean;
}) {
  const sites = useSites();
  const [siteId, setSiteId] = useState<string | undefined>();
  const dashboard = useDashboard(siteId);
  const { t } = useTranslation('dashboard');

  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-6">
      <PageHeader title={t('title')} description={t('description')} />
      <SitePicker
        id="dashboard-site"
        sites={sites.data ?? []}
        value={siteId}
        onChange={setSiteId}
      />
      {dashboard.isPending ? (
        <LoadingScreen label={t('loading')} />
      ) : dashboard.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {getErrorMessage(dashboard.error, t('loadFailed'))}
        </p>
      ) : (
        <>
          <StatCards data={dashboard.data} />
          {showArrivals && <ArrivalsToday siteId={siteId} enabled={dashboard.isSuccess} />}
          <Card>
            <CardHeader>
              <CardTitle className="flex items-center gap-2">
                <ActivityIcon aria-hidden className="size-4" />
                {t('recentActivity')}
              </CardTitle>
              <CardDescription>{t('latestTen')}</CardDescription>
            </CardHeader>
            <CardContent>
              <RecentEntries
                entries={dashboard.data.recentEntries.slice(0, 10)}
                canOverride={canOverride}
              />
            </CardContent>
          </Card>
        </>
      )}
    </div>
  );
}
