import {
  ActivityIcon,
  CarIcon,
  CheckCircle2Icon,
  ClipboardListIcon,
  GaugeIcon,
  type LucideIcon,
  MinusIcon,
  ScanFaceIcon,
  ServerIcon,
  UsersIcon,
} from 'lucide-react';
import { Link } from 'wouter';

import type { Dashboard, EntryLog } from '@boomgate/contracts/entry-logs';

import { RefusedMark } from '@/components/entry-warnings';
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
import { paths } from '@/config/paths';
import { getErrorMessage } from '@/lib/api-client';
import { formatDate, formatTime } from '@/lib/format';

import { useDashboard } from '../api/get-dashboard';

/** Spec §9: the performance figure is fixed at 98% once there are entries. */
const PERFORMANCE_WITH_ENTRIES = '98%';

function StatCard({
  title,
  value,
  detail,
  icon: Icon,
}: {
  title: string;
  value: string;
  detail: string;
  icon: LucideIcon;
}) {
  return (
    <Card className="gap-2 py-5" data-testid={`stat-${title.toLowerCase().replace(/\s+/g, '-')}`}>
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
  return (
    <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
      <StatCard
        title="Total Entries"
        value={String(data.totalEntries)}
        detail={`${data.todayEntries} today`}
        icon={ClipboardListIcon}
      />
      <StatCard
        title="Approval Rate"
        value={percent(data.approvalRate)}
        detail={`${data.grantedEntries} of ${data.totalEntries} attempts granted`}
        icon={CheckCircle2Icon}
      />
      <StatCard
        title="Verification Rate"
        value={percent(data.verificationRate)}
        detail={`${data.faceVerifiedEntries} of ${data.totalEntries} entries face-verified`}
        icon={ScanFaceIcon}
      />
      <StatCard
        title="Registered Vehicles"
        value={String(data.registeredVehicles)}
        detail="Pre-approved for entry"
        icon={CarIcon}
      />
      <StatCard
        title="System Users"
        value={String(data.activeUsers)}
        detail="Active users"
        icon={UsersIcon}
      />
      <StatCard
        title="Processing Status"
        value="OPERATIONAL"
        detail="Gate verification is running"
        icon={ServerIcon}
      />
      <StatCard
        title="Performance"
        value={data.totalEntries > 0 ? PERFORMANCE_WITH_ENTRIES : 'N/A'}
        detail="Recognition accuracy"
        icon={GaugeIcon}
      />
    </div>
  );
}

function RecentEntries({ entries }: { entries: EntryLog[] }) {
  if (entries.length === 0) {
    return (
      <p className="py-8 text-center text-sm text-muted-foreground">No entry logs available</p>
    );
  }
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>Timestamp</TableHead>
          <TableHead>Plate Number</TableHead>
          <TableHead>Category</TableHead>
          <TableHead>Status</TableHead>
          <TableHead>Face Verified</TableHead>
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
            </TableCell>
            <TableCell className="capitalize">{entry.category || 'visitor'}</TableCell>
            <TableCell>
              {/* Spec §4: the badge follows vehicleApproved; a refused attempt is marked beside it. */}
              <div className="flex flex-wrap items-center gap-1">
                {entry.vehicleApproved ? (
                  <Badge variant="success">APPROVED</Badge>
                ) : (
                  <Badge variant="secondary">PENDING</Badge>
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
                    Expired document
                  </Badge>
                )}
              </div>
            </TableCell>
            <TableCell>
              {entry.faceVerified ? (
                <CheckCircle2Icon
                  role="img"
                  aria-label="Face verified"
                  className="size-5 text-success"
                />
              ) : (
                <MinusIcon
                  role="img"
                  aria-label="Not face verified"
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

/** Spec §2 'System Dashboard': entry statistics and the latest ten entries. */
export function SystemDashboard() {
  const dashboard = useDashboard();

  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-6">
      <PageHeader
        title="System Dashboard"
        description="Entry statistics and recent gate activity."
      />
      {dashboard.isPending ? (
        <LoadingScreen label="Loading dashboard..." />
      ) : dashboard.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {getErrorMessage(dashboard.error, 'Failed to load the dashboard')}
        </p>
      ) : (
        <>
          <StatCards data={dashboard.data} />
          <Card>
            <CardHeader>
              <CardTitle className="flex items-center gap-2">
                <ActivityIcon aria-hidden className="size-4" />
                Recent Entry Activity
              </CardTitle>
              <CardDescription>The latest 10 entries at the gate.</CardDescription>
            </CardHeader>
            <CardContent>
              <RecentEntries entries={dashboard.data.recentEntries.slice(0, 10)} />
            </CardContent>
          </Card>
        </>
      )}
    </div>
  );
}
