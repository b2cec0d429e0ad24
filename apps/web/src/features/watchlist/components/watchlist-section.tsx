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

import { useAddToWatchlist, useRemoveFromWatchlist, useWatchlist } from '../api/watchlist';

const KIND_LABELS: Record<WatchlistKind, string> = {
  plate: 'Plate',
  idNumber: 'Driver ID number',
  company: 'Transport company',
};

const SELECT_CLASS =
  'h-9 w-full rounded-md border border-input bg-transparent px-3 text-sm shadow-xs focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring';

function AddEntryForm() {
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
      toast({ title: 'Added to the watchlist', description: value });
      setValue('');
      setReason('');
      setCovert(false);
      setExpiresOn('');
    } catch (error) {
      toast({
        variant: 'destructive',
        title: 'Could not add',
        description: getErrorMessage(error, 'Check the entry and try again'),
      });
    }
  };

  return (
    <form className="grid gap-4 sm:grid-cols-2" onSubmit={(event) => void submit(event)}>
      <Field id="watchlist-kind" label="Kind">
        <select
          id="watchlist-kind"
          className={SELECT_CLASS}
          value={kind}
          onChange={(event) => setKind(event.target.value as WatchlistKind)}
        >
          {WATCHLIST_KINDS.map((option) => (
            <option key={option} value={option}>
              {KIND_LABELS[option]}
            </option>
          ))}
        </select>
      </Field>
      <Field id="watchlist-value" label={KIND_LABELS[kind]}>
        <Input
          id="watchlist-value"
          value={value}
          onChange={(event) => setValue(event.target.value)}
          required
          minLength={2}
          maxLength={200}
        />
      </Field>
      <Field id="watchlist-reason" label="Reason" className="sm:col-span-2">
        <Input
          id="watchlist-reason"
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          required
          maxLength={500}
        />
      </Field>
      <Field id="watchlist-severity" label="At the gate">
        <select
          id="watchlist-severity"
          className={SELECT_CLASS}
          value={severity}
          onChange={(event) => setSeverity(event.target.value as WatchlistSeverity)}
        >
          <option value="block">Block (refuse entry)</option>
          <option value="alert">Alert (grant with a warning)</option>
        </select>
      </Field>
      <Field id="watchlist-expires" label="Expires (optional)">
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
        <Label htmlFor="watchlist-covert">
          Covert: the guard sees only &quot;Manual check required&quot; (block) or nothing (alert)
        </Label>
      </div>
      <div className="sm:col-span-2">
        <Button type="submit" disabled={add.isPending}>
          {add.isPending && <Spinner />}
          Add to Watchlist
        </Button>
      </div>
    </form>
  );
}

function EntryRow({ entry, canEdit }: { entry: WatchlistEntry; canEdit: boolean }) {
  const remove = useRemoveFromWatchlist();
  return (
    <TableRow>
      <TableCell>{KIND_LABELS[entry.kind]}</TableCell>
      <TableCell className="font-mono">{entry.value}</TableCell>
      <TableCell>
        <div className="flex flex-wrap gap-1">
          <Badge variant={entry.severity === 'block' ? 'destructive' : 'secondary'}>
            {entry.severity === 'block' ? 'Block' : 'Alert'}
          </Badge>
          {entry.covert && <Badge variant="outline">Covert</Badge>}
          {!entry.isActive && <Badge variant="outline">Expired</Badge>}
        </div>
      </TableCell>
      <TableCell>
        {entry.reason}
        <p className="text-xs text-muted-foreground">
          Added by {entry.createdBy.name ?? 'unknown'} on{' '}
          {new Date(entry.createdAt).toLocaleDateString()}
          {entry.expiresAt && ` · expires ${new Date(entry.expiresAt).toLocaleDateString()}`}
        </p>
      </TableCell>
      {canEdit && (
        <TableCell className="text-right">
          <Button
            variant="ghost"
            size="icon"
            aria-label={`Remove ${entry.value} from the watchlist`}
            disabled={remove.isPending}
            onClick={() =>
              remove.mutate(entry.id, {
                onError: (error) =>
                  toast({
                    variant: 'destructive',
                    title: 'Could not remove',
                    description: getErrorMessage(error, 'Try again'),
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
  const watchlist = useWatchlist();
  return (
    <Card data-testid="watchlist-section">
      <CardHeader>
        <CardTitle>Watchlist</CardTitle>
        <CardDescription>
          Plates, drivers and transport companies checked at every gate. A block refuses entry; an
          alert lets the vehicle in with a warning.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        {canEdit && <AddEntryForm />}
        {watchlist.isPending ? (
          <Spinner />
        ) : watchlist.isError ? (
          <Alert variant="destructive">
            <AlertDescription>
              {getErrorMessage(watchlist.error, 'Failed to load the watchlist')}
            </AlertDescription>
          </Alert>
        ) : watchlist.data.length === 0 ? (
          <p className="text-sm text-muted-foreground">The watchlist is empty.</p>
        ) : (
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Kind</TableHead>
                <TableHead>Value</TableHead>
                <TableHead>At the gate</TableHead>
                <TableHead>Reason</TableHead>
                {canEdit && <TableHead className="sr-only">Actions</TableHead>}
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
