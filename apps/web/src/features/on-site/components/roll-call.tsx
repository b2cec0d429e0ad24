import { PrinterIcon } from 'lucide-react';
import { useSearch } from 'wouter';

import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
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
import { useTranslation } from '@/lib/i18n';
import { formatPlate } from '@/lib/plates';

import { useRollCall, useSites } from '../api/on-site';

const DASH = '-';

/**
 * The evacuation roll-call (Mine Health and Safety Act: everyone on site accounted for): names,
 * plates, companies, entry time and a tick box each, printed or saved as PDF from the browser's
 * print dialog. The last list is kept in the browser and shown when the server cannot be reached.
 */
export function RollCall() {
  const { t } = useTranslation('onSite');
  const siteId = new URLSearchParams(useSearch()).get('siteId') ?? undefined;
  const sites = useSites();
  const rollCall = useRollCall(siteId);
  const siteName = siteId ? sites.data?.find((site) => site.id === siteId)?.name : undefined;

  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-4 print:max-w-none">
      <PageHeader
        title={t('rollCallPage.title')}
        description={
          siteName ? t('rollCallPage.everyoneAt', { site: siteName }) : t('rollCallPage.everyone')
        }
      />
      {rollCall.isPending ? (
        <LoadingScreen label={t('rollCallPage.loading')} />
      ) : rollCall.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {getErrorMessage(rollCall.error, t('rollCallPage.loadFailed'))}
        </p>
      ) : (
        <>
          <div className="flex flex-wrap items-center justify-between gap-3">
            <p className="text-sm" data-testid="roll-call-saved-at">
              {t('rollCallPage.savedAt', {
                count: rollCall.data.visits.length,
                when: `${formatDate(rollCall.data.savedAt)} ${formatTime(rollCall.data.savedAt)}`,
              })}
            </p>
            <Button className="print:hidden" onClick={() => window.print()}>
              <PrinterIcon aria-hidden />
              {t('rollCallPage.print')}
            </Button>
          </div>
          {rollCall.data.offline ? (
            <Alert variant="destructive" data-testid="roll-call-offline">
              <AlertDescription>{t('rollCallPage.offline')}</AlertDescription>
            </Alert>
          ) : null}
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead className="w-12">{t('rollCallPage.here')}</TableHead>
                <TableHead>{t('columns.name')}</TableHead>
                <TableHead>{t('columns.plate')}</TableHead>
                <TableHead>{t('columns.company')}</TableHead>
                <TableHead>{t('rollCallPage.entered')}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {rollCall.data.visits.map((visit) => (
                <TableRow key={visit.id} data-testid="roll-call-row">
                  <TableCell>
                    <input
                      type="checkbox"
                      aria-label={t('rollCallPage.accountedFor', {
                        who: visit.personName ?? visit.plateNumber ?? '',
                      })}
                      className="size-4"
                    />
                  </TableCell>
                  <TableCell>{visit.personName?.trim() || DASH}</TableCell>
                  <TableCell className="font-mono">
                    {visit.plateNumber ? formatPlate(visit.plateNumber) : DASH}
                  </TableCell>
                  <TableCell>{visit.company?.trim() || DASH}</TableCell>
                  <TableCell>
                    {formatDate(visit.enteredAt)} {formatTime(visit.enteredAt)}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </>
      )}
    </div>
  );
}
