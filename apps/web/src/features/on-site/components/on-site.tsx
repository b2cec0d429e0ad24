import { LogOutIcon, PrinterIcon, UsersIcon } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';

import type { Visit } from '@boomgate/contracts/visits';

import { LoadMore } from '@/components/load-more';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
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
import { SitePicker } from '@/components/site-picker';
import { paths } from '@/config/paths';
import { getErrorMessage } from '@/lib/api-client';
import { formatDate, formatTime } from '@/lib/format';
import { formatPlate } from '@/lib/plates';

import { useOnSite, useRecordExit, useSignInPerson, useSites } from '../api/on-site';

import { ExitWarnings } from './exit-warnings';

const DASH = '-';

function VisitRow({ visit, onExited }: { visit: Visit; onExited: (exited: Visit) => void }) {
  const exit = useRecordExit();
  return (
    <TableRow
      data-testid="on-site-row"
      data-overstay={visit.overstay || undefined}
      className={visit.overstay ? 'bg-destructive/10' : undefined}
    >
      <TableCell className="font-mono">
        {visit.plateNumber ? formatPlate(visit.plateNumber) : DASH}
      </TableCell>
      <TableCell>{visit.personName?.trim() || DASH}</TableCell>
      <TableCell className="hidden md:table-cell">{visit.company?.trim() || DASH}</TableCell>
      <TableCell>
        <div className="font-medium">{formatDate(visit.enteredAt)}</div>
        <div className="text-xs text-muted-foreground">{formatTime(visit.enteredAt)}</div>
      </TableCell>
      <TableCell className="hidden lg:table-cell">{visit.enteredBy.name ?? DASH}</TableCell>
      <TableCell>
        <div className="flex flex-wrap gap-1">
          {visit.overstay ? <Badge variant="destructive">Overstay</Badge> : null}
          {visit.reEntry ? <Badge variant="outline">Re-entry</Badge> : null}
          {visit.kind === 'person' ? <Badge variant="secondary">On foot</Badge> : null}
        </div>
      </TableCell>
      <TableCell className="text-right">
        <Button
          size="sm"
          variant="outline"
          disabled={exit.isPending}
          onClick={() =>
            exit.mutate(visit, {
              // A queued exit (offline: null) has no server checks to show yet.
              onSuccess: (exited) => {
                if (exited) onExited(exited);
              },
            })
          }
        >
          <LogOutIcon aria-hidden />
          Record Exit
        </Button>
        {exit.isError ? (
          <p role="alert" className="text-xs text-destructive">
            {getErrorMessage(exit.error, 'Failed to record the exit')}
          </p>
        ) : null}
      </TableCell>
    </TableRow>
  );
}

function SignInPersonForm({ siteId }: { siteId: string | undefined }) {
  const signIn = useSignInPerson();
  const [name, setName] = useState('');
  const [idNumber, setIdNumber] = useState('');
  const [company, setCompany] = useState('');
  return (
    <form
      className="grid gap-3 sm:grid-cols-4 sm:items-end"
      onSubmit={(event) => {
        event.preventDefault();
        signIn.mutate(
          {
            ...(siteId && { siteId }),
            name,
            ...(idNumber.trim() && { idNumber: idNumber.trim() }),
            ...(company.trim() && { company: company.trim() }),
          },
          {
            onSuccess: () => {
              setName('');
              setIdNumber('');
              setCompany('');
            },
          },
        );
      }}
    >
      <div className="grid gap-1">
        <Label htmlFor="person-name">Name</Label>
        <Input id="person-name" required value={name} onChange={(e) => setName(e.target.value)} />
      </div>
      <div className="grid gap-1">
        <Label htmlFor="person-id">ID or passport number</Label>
        <Input id="person-id" value={idNumber} onChange={(e) => setIdNumber(e.target.value)} />
      </div>
      <div className="grid gap-1">
        <Label htmlFor="person-company">Company</Label>
        <Input id="person-company" value={company} onChange={(e) => setCompany(e.target.value)} />
      </div>
      <Button type="submit" disabled={signIn.isPending || !name.trim()}>
        Sign In Person
      </Button>
      {signIn.isError ? (
        <p role="alert" className="text-sm text-destructive sm:col-span-4">
          {getErrorMessage(signIn.error, 'Failed to sign the person in')}
        </p>
      ) : null}
    </form>
  );
}

/**
 * Issue 16 On Site: the vehicles and people inside a site now, since when and who let them in,
 * overstays highlighted; Record Exit closes a visit. The roll-call is its printable list.
 */
export function OnSite() {
  const sites = useSites();
  const [siteId, setSiteId] = useState<string | undefined>();
  const onSite = useOnSite(siteId);
  const visits = onSite.data?.pages.flatMap((page) => page.visits) ?? [];
  const [lastExit, setLastExit] = useState<Visit | null>(null);

  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-6">
      <PageHeader
        title="On Site"
        description="Vehicles and people inside now. Overstays are highlighted."
      />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <SitePicker sites={sites.data ?? []} value={siteId} onChange={setSiteId} />
        <Button asChild variant="outline">
          <Link href={paths.rollCall(siteId)}>
            <PrinterIcon aria-hidden />
            Roll-Call
          </Link>
        </Button>
      </div>
      {lastExit ? <ExitWarnings visit={lastExit} onDismiss={() => setLastExit(null)} /> : null}
      <Card>
        <CardHeader>
          <CardTitle>Sign In a Person on Foot</CardTitle>
          <CardDescription>
            Visitors, contractors and passengers, for the roll-call.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <SignInPersonForm siteId={siteId} />
        </CardContent>
      </Card>
      {onSite.isPending ? (
        <LoadingScreen label="Loading who is on site..." />
      ) : onSite.isError && !onSite.data ? (
        <p role="alert" className="text-sm text-destructive">
          {getErrorMessage(onSite.error, 'Failed to load who is on site')}
        </p>
      ) : (
        <Card>
          <CardHeader>
            <CardTitle>Inside Now</CardTitle>
            <CardDescription>Newest first.</CardDescription>
          </CardHeader>
          <CardContent>
            {visits.length === 0 ? (
              <div className="flex flex-col items-center gap-2 py-10 text-center">
                <UsersIcon aria-hidden className="size-10 text-muted-foreground" />
                <p className="font-semibold">Nobody On Site</p>
              </div>
            ) : (
              <>
                <Table>
                  <TableHeader>
                    <TableRow>
                      <TableHead>Plate</TableHead>
                      <TableHead>Name</TableHead>
                      <TableHead className="hidden md:table-cell">Company</TableHead>
                      <TableHead>Since</TableHead>
                      <TableHead className="hidden lg:table-cell">Let In By</TableHead>
                      <TableHead>Status</TableHead>
                      <TableHead className="text-right">Exit</TableHead>
                    </TableRow>
                  </TableHeader>
                  <TableBody>
                    {visits.map((visit) => (
                      <VisitRow key={visit.id} visit={visit} onExited={setLastExit} />
                    ))}
                  </TableBody>
                </Table>
                <LoadMore query={onSite} failure="Failed to load more" />
              </>
            )}
          </CardContent>
        </Card>
      )}
    </div>
  );
}
