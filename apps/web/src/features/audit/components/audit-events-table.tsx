import { ExternalLinkIcon, ListFilterIcon } from 'lucide-react';
import { Link } from 'wouter';

import type { AuditEvent } from '@boomgate/contracts/audit';

import { Button } from '@/components/ui/button';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { formatDate, formatTime } from '@/lib/format';
import { useTranslation } from '@/lib/i18n';

import { auditTarget } from './audit-target';

const DASH = '-';

/** A short, readable line of the event's details (the full JSON is in the export). */
function detailsLine(details: AuditEvent['details']): string {
  if (!details) return DASH;
  const parts = Object.entries(details).map(
    ([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`,
  );
  const line = parts.join(', ');
  return line.length > 160 ? `${line.slice(0, 159)}…` : line || DASH;
}

function TargetCell({
  event,
  onShowTarget,
}: {
  event: AuditEvent;
  onShowTarget: (targetId: string) => void;
}) {
  const { t } = useTranslation('audit');
  const target = auditTarget(event.targetType, event.targetId);
  if (!target) return <>{DASH}</>;
  return (
    <div className="flex flex-col items-start gap-1">
      {target.href ? (
        <Link href={target.href} className="inline-flex items-center gap-1 font-medium underline">
          {target.label}
          <ExternalLinkIcon aria-hidden className="size-3" />
        </Link>
      ) : (
        <span className="font-medium">{target.label}</span>
      )}
      {event.targetId && (
        <Button
          variant="ghost"
          size="sm"
          className="h-auto min-h-11 px-0 font-mono text-xs text-muted-foreground"
          aria-label={t('showTarget', { label: target.label, id: event.targetId })}
          onClick={() => onShowTarget(event.targetId!)}
        >
          <ListFilterIcon aria-hidden />
          {event.targetId.slice(0, 8)}
        </Button>
      )}
    </div>
  );
}

/** Newest first: when, who, what, about what, from where. */
export function AuditEventsTable({
  events,
  onShowTarget,
}: {
  events: AuditEvent[];
  onShowTarget: (targetId: string) => void;
}) {
  const { t } = useTranslation('audit');
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>{t('columns.dateTime')}</TableHead>
          <TableHead>{t('columns.person')}</TableHead>
          <TableHead>{t('columns.action')}</TableHead>
          <TableHead>{t('columns.target')}</TableHead>
          <TableHead className="hidden lg:table-cell">{t('columns.details')}</TableHead>
          <TableHead className="hidden md:table-cell">{t('columns.ip')}</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {events.map((event) => (
          <TableRow key={event.id} data-testid="audit-row">
            <TableCell>
              <div className="font-medium">{formatDate(event.occurredAt)}</div>
              <div className="text-sm text-muted-foreground">{formatTime(event.occurredAt)}</div>
            </TableCell>
            <TableCell>
              {event.actorName ?? (event.actorUserId ? t('unknownUser') : t('system'))}
            </TableCell>
            <TableCell className="font-mono text-sm">{event.action}</TableCell>
            <TableCell>
              <TargetCell event={event} onShowTarget={onShowTarget} />
            </TableCell>
            <TableCell className="hidden max-w-md text-sm break-words lg:table-cell">
              {detailsLine(event.details)}
            </TableCell>
            <TableCell className="hidden font-mono text-sm md:table-cell">
              {event.ip ?? DASH}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
