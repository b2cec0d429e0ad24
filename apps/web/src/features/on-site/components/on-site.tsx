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
import { useTranslation } from '@/lib/i18n';
import { formatPlate } from '@/lib/plates';

import { useOnSite, useRecordExit, useSignInPerson, useSites } from '../api/on-site';

import { ExitWarnings } from './exit-warnings';
import { PlateExitForm } from './plate-exit-form';

const DASH = '-';

function VisitRow({ visit, onExited }: { visit: Visit; onExited: (exited: Visit) => void }) {
  const { t } = useTranslation('onSite');
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
          {visit.overstay ? <Badge variant="destructive">{t('overstay')}</Badge> : null}
          {visit.reEntry ? <Badge variant="outline">{t('reEntry')}</Badge> : null}
          {visit.kind === 'person' ? <Badge variant="secondary">{t('onFoot')}</Badge> : null}
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
          {t('recordExit')}
        </Button>
        {exit.isError ? (
          <p role="alert" className="text-xs text-destructive">
            {getErrorMessage(exit.error, t('recordExitFailed'))}
          </p>
        ) : null}
      </TableCell>
    </TableRow>
  );
}

function SignInPersonForm({ siteId }: { siteId: string | undefined }) {
  const { t } = useTranslation('onSite');
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
        <Label htmlFor="person-name">{t('personName')}</Label>
        <Input id="person-name" required value={name} onChange={(e) => setName(e.target.value)} />
      </div>
      <div className="grid gap-1">
        <Label htmlFor="person-id">{t('personId')}</Label>
        <Input id="person-id" value={idNumber} onChange={(e) => setIdNumber(e.target.value)} />
      </div>
      <div className="grid gap-1">
        <Label htmlFor="person-company">{t('personCompany')}</Label>
        <Input id="person-company" value={company} onChange={(e) => setCompany(e.target.value)} />
      </div>
      <Button type="submit" disabled={signIn.isPending || !name.trim()}>
        {t('signInPerson')}
      </Button>
      {signIn.isError ? (
        <p role="alert" className="text-sm text-destructive sm:col-span-4">
          {getErrorMessage(signIn.error, t('signInFailed'))}
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
  const { t } = useTranslation('onSite');
  const sites = useSites();
  const [siteId, setSiteId] = useState<string | undefined>();
  const onSite = useOnSite(siteId);
  const visits = onSite.data?.pages.flatMap((page) => page.visits) ?? [];
  const [lastExit, setLastExit] = useState<Visit | null>(null);

  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-6">
      <PageHeader title={t('title')} description={t('description')} />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <SitePicker sites={sites.data ?? []} value={siteId} onChange={setSiteId} />
        <Button asChild variant="outline">
          <Link href={paths.rollCall(siteId)}>
            <PrinterIcon aria-hidden />
            {t('rollCall')}
          </Link>
        </Button>
      </div>
      {lastExit ? <ExitWarnings visit={lastExit} onDismiss={() => setLastExit(null)} /> : null}
      <Card>
        <CardHeader>
          <CardTitle>{t('plateExit.title')}</CardTitle>
          <CardDescription>{t('plateExit.description')}</CardDescription>
        </CardHeader>
        <CardContent>
          <PlateExitForm siteId={siteId} onExited={setLastExit} />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>{t('signInTitle')}</CardTitle>
          <CardDescription>{t('signInDescription')}</CardDescription>
        </CardHeader>
        <CardContent>
          <SignInPersonForm siteId={siteId} />
        </CardContent>
      </Card>
      {onSite.isPending ? (
        <LoadingScreen label={t('loading')} />
      ) : onSite.isError && !onSite.data ? (
        <p role="alert" className="text-sm text-destructive">
          {getErrorMessage(onSite.error, t('loadFailed'))}
        </p>
      ) : (
        <Card>
          <CardHeader>
            <CardTitle>{t('insideNow')}</CardTitle>
            <CardDescription>{t('newestFirst')}</CardDescription>
          </CardHeader>
          <CardContent>
            {visits.length === 0 ? (
              <div className="flex flex-col items-center gap-2 py-10 text-center">
                <UsersIcon aria-hidden className="size-10 text-muted-foreground" />
                <p className="font-semibold">{t('nobody')}</p>
              </div>
            ) : (
              <>
                <Table>
                  <TableHeader>
                    <TableRow>
                      <TableHead>{t('columns.plate')}</TableHead>
                      <TableHead>{t('columns.name')}</TableHead>
                      <TableHead className="hidden md:table-cell">{t('columns.company')}</TableHead>
                      <TableHead>{t('columns.since')}</TableHead>
                      <TableHead className="hidden lg:table-cell">{t('columns.letInBy')}</TableHead>
                      <TableHead>{t('columns.status')}</TableHead>
                      <TableHead className="text-right">{t('columns.exit')}</TableHead>
                    </TableRow>
                  </TableHeader>
                  <TableBody>
                    {visits.map((visit) => (
                      <VisitRow key={visit.id} visit={visit} onExited={setLastExit} />
                    ))}
                  </TableBody>
                </Table>
                <LoadMore query={onSite} failure={t('loadMoreFailed')} />
              </>
            )}
          </CardContent>
        </Card>
      )}
    </div>
  );
}
