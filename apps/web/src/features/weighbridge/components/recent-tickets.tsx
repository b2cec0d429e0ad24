import type { Correction } from '@boomgate/contracts/corrections';

import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
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
import { readText } from '@/lib/corrections';
import { formatDate, formatTime } from '@/lib/format';
import { useTranslation } from '@/lib/i18n';

import { useWeighbridgeTickets } from '../api/get-weighbridge-tickets';

import { formatKg, WeightCheck } from './weights';

/**
 * Issue 15: what the guard typed before saving, beside what was read, by whom and when (the
 * ticket's provenance; the read value is never silently replaced).
 */
function TicketCorrections({ corrections }: { corrections: Correction[] }) {
  const { t } = useTranslation('weighbridge');
  if (corrections.length === 0) return null;
  return (
    <ul
      className="mt-1 w-40 whitespace-normal text-xs font-normal text-muted-foreground sm:w-72"
      data-testid="ticket-corrections"
    >
      {corrections.map((correction) => (
        <li key={correction.id}>
          {t(`recent.provenance.${correction.kind}`, {
            field: t(`fields.${correction.field}`, { defaultValue: correction.field }),
            read: readText(correction.readValue),
            typed: correction.typedValue,
            by: correction.correctedBy.name ?? '-',
            when: `${formatDate(correction.correctedAt)} ${formatTime(correction.correctedAt)}`,
          })}
        </li>
      ))}
    </ul>
  );
}

/** The saved tickets, newest first, each with its gross − tare = net check. */
export function RecentTickets() {
  const { t } = useTranslation('weighbridge');
  const tickets = useWeighbridgeTickets();
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('recent.title')}</CardTitle>
        <CardDescription>{t('recent.description')}</CardDescription>
      </CardHeader>
      <CardContent>
        {tickets.isPending ? (
          <LoadingScreen label={t('recent.loading')} />
        ) : tickets.isError ? (
          <p role="alert" className="text-sm text-destructive">
            {getErrorMessage(tickets.error, t('recent.loadFailed'))}
          </p>
        ) : tickets.data.length === 0 ? (
          <p className="py-6 text-center text-sm text-muted-foreground">{t('recent.none')}</p>
        ) : (
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>{t('recent.columns.dateTime')}</TableHead>
                <TableHead>{t('recent.columns.ticket')}</TableHead>
                <TableHead>{t('recent.columns.vehicle')}</TableHead>
                <TableHead className="hidden md:table-cell">
                  {t('recent.columns.product')}
                </TableHead>
                <TableHead className="text-right">{t('recent.columns.gross')}</TableHead>
                <TableHead className="text-right">{t('recent.columns.tare')}</TableHead>
                <TableHead className="text-right">{t('recent.columns.net')}</TableHead>
                <TableHead>{t('recent.columns.check')}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {tickets.data.map((ticket) => (
                <TableRow key={ticket.id} data-testid="ticket-row">
                  <TableCell>
                    <div>{formatDate(ticket.createdAt)}</div>
                    <div className="text-xs text-muted-foreground">
                      {formatTime(ticket.createdAt)}
                    </div>
                  </TableCell>
                  <TableCell className="font-medium">
                    {ticket.ticketNumber ?? '-'}
                    <TicketCorrections corrections={ticket.corrections} />
                  </TableCell>
                  <TableCell className="font-mono">{ticket.vehicleReg ?? '-'}</TableCell>
                  <TableCell className="hidden md:table-cell">{ticket.product ?? '-'}</TableCell>
                  <TableCell className="text-right">{formatKg(ticket.grossWeight)}</TableCell>
                  <TableCell className="text-right">{formatKg(ticket.tareWeight)}</TableCell>
                  <TableCell className="text-right">{formatKg(ticket.netWeight)}</TableCell>
                  <TableCell>
                    <WeightCheck agrees={ticket.weightsConsistent} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}
