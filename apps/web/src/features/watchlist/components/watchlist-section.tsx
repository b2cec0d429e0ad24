import { Trash2Icon } from 'lucide-react';
import { type FormEvent, useState } from 'react';

import {
  WATCHLIST_KINDS,
  type WatchlistEntry,
  type WatchlistKind,
  type WatchlistSeverity,
} from '@boomgate/contracts/watchlist';

import { Alert, AlertDescription } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { useTranslation } from '@/lib/i18n';

import { useAddToWatchlist, useRemoveFromWatchlist, useWatchlist } from '../api/watchlist';

const SELECT_CLASS =
  'h-9 w-full rounded-md border border-input bg-transparent px-3 text-sm shadow-xs focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring';

function AddEntryForm() {
  const { t } = useTranslation('settings');
  const add = useAddToWatchlist();
  const [kind, setKind] = useState<WatchlistKind>('plate');
  const [value, setValue] = useState('');
  const [reason, setReason] = useState('');
  const [severity, setSeverity] = useState<WatchlistSeverity>('block');
  const [covert, setCovert] = useState(false);
  const [expiresOn, setExpiresOn] = useState('');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await add.mutateAsync({
        kind,
        value,
        reason,
        severity,
        covert,
        // The end of the chosen day, site time (SAST, UTC+2).
        expiresAt: expiresOn ? new Date(`${expiresOn}T23:59:59+02:00`).toISOString() : null,
      });
      toast({ title: t('watchlist.added'), description: value });
      setValue('');
      setReason('');
      setCovert(false);
      setExpiresOn('');
    } catch (error) {
      toast({
        variant: 'destructive',
        title: t('watchlist.addFailed'),
        description: getErrorMessage(error, t('watchlist.addFailedDetail')),
      });
    }
  };

  return (
    <form className="grid gap-4 sm:grid-cols-2" onSubmit={(event) => void submit(event)}>
      <Field id="watchlist-kind" label={t('watchlist.kind')}>
        <select
          id="watchlist-kind"
          className={SELECT_CLASS}
          value={kind}
          onChange={(event) => setKind(event.target.value as WatchlistKind)}
        >
          {WATCHLIST_KINDS.map((option) => (
            <option key={option} value={option}>
              {t(`watchlist.kinds.${option}`)}
            </option>
          ))}
        </select>
      </Field>
      <Field id="watchlist-value" label={t(`watchlist.kinds.${kind}`)}>
        <Input
          id="watchlist-value"
          value={value}
          onChange={(event) => setValue(event.target.value)}
          required
          minLength={2}
          maxLength={200}
        />
      </Field>
      <Field id="watchlist-reason" label={t('watchlist.reason')} className="sm:col-span-2">
        <Input
          id="watchlist-reason"
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          required
          maxLength={500}
        />
      </Field>
      <Field id="watchlist-severity" label={t('watchlist.atGate')}>
        <select
          id="watchlist-severity"
          className={SELECT_CLASS}
          value={severity}
          onChange={(event) => setSeverity(event.target.value as WatchlistSeverity)}
        >
          <option value="block">{t('watchlist.blockOption')}</option>
          <option value="alert">{t('watchlist.alertOption')}</option>
        </select>
      </Field>
      <Field id="watchlist-expires" label={t('watchlist.expires')}>
        <Input
          id="watchlist-expires"
          type="date"
          value={expiresOn}
          onChange={(event) => setExpiresOn(event.target.value)}
        />
      </Field>
      <div className="flex items-center gap-2 sm:col-span-2">
        <Checkbox
          id="watchlist-covert"
          checked={covert}
          onCheckedChange={(checked) => setCovert(checked === true)}
        />
        <Label htmlFor="watchlist-covert">{t('watchlist.covert')}</Label>
      </div>
      <div className="sm:col-span-2">
        <Button type="submit" disabled={add.isPending}>
          {add.isPending && <Spinner />}
          {t('watchlist.add')}
        </Button>
      </div>
    </form>
  );
}

function EntryRow({ entry, canEdit }: { entry: WatchlistEntry; canEdit: boolean }) {
  const { t } = useTranslation('settings');
  const remove = useRemoveFromWatchlist();
  return (
    <TableRow>
      <TableCell>{t(`watchlist.kinds.${entry.kind}`)}</TableCell>
      <TableCell className="font-mono">{entry.value}</TableCell>
      <TableCell>
        <div className="flex flex-wrap gap-1">
          <Badge variant={entry.severity === 'block' ? 'destructive' : 'secondary'}>
            {entry.severity === 'block' ? t('watchlist.block') : t('watchlist.alert')}
          </Badge>
          {entry.covert && <Badge variant="outline">{t('watchlist.covertBadge')}</Badge>}
          {!entry.isActive && <Badge variant="outline">{t('watchlist.expired')}</Badge>}
        </div>
      </TableCell>
      <TableCell>
        {entry.reason}
        <p className="text-xs text-muted-foreground">
          {t('watchlist.addedBy', {
            name: entry.createdBy.name ?? t('watchlist.unknown'),
            date: formatDate(entry.createdAt),
          })}
          {entry.expiresAt && t('watchlist.expiresOn', { date: formatDate(entry.expiresAt) })}
        </p>
      </TableCell>
      {canEdit && (
        <TableCell className="text-right">
          <Button
            variant="ghost"
            size="icon"
            aria-label={t('watchlist.remove', { value: entry.value })}
            disabled={remove.isPending}
            onClick={() =>
              remove.mutate(entry.id, {
                onError: (error) =>
                  toast({
                    variant: 'destructive',
                    title: t('watchlist.removeFailed'),
                    description: getErrorMessage(error, t('watchlist.tryAgain')),
                  }),
              })
            }
          >
            <Trash2Icon aria-hidden />
          </Button>
        </TableCell>
      )}
    </TableRow>
  );
}

/**
 * Issue 21: the organization's watchlist, under Settings. Plates, driver ID numbers and transport
 * companies that every gate path refuses (block) or grants with a warning (alert).
 */
export function WatchlistSection({ canEdit }: { canEdit: boolean }) {
  const { t } = useTranslation('settings');
  const watchlist = useWatchlist();
  return (
    <Card data-testid="watchlist-section">
      <CardHeader>
        <CardTitle>{t('watchlist.title')}</CardTitle>
        <CardDescription>{t('watchlist.description')}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        {canEdit && <AddEntryForm />}
        {watchlist.isPending ? (
          <Spinner />
        ) : watchlist.isError ? (
          <Alert variant="destructive">
            <AlertDescription>
              {getErrorMessage(watchlist.error, t('watchlist.loadFailed'))}
            </AlertDescription>
          </Alert>
        ) : watchlist.data.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t('watchlist.empty')}</p>
        ) : (
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>{t('watchlist.kind')}</TableHead>
                <TableHead>{t('watchlist.value')}</TableHead>
                <TableHead>{t('watchlist.atGate')}</TableHead>
                <TableHead>{t('watchlist.reason')}</TableHead>
                {canEdit && <TableHead className="sr-only">{t('watchlist.actions')}</TableHead>}
              </TableRow>
            </TableHeader>
            <TableBody>
              {watchlist.data.map((entry) => (
                <EntryRow key={entry.id} entry={entry} canEdit={canEdit} />
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}
