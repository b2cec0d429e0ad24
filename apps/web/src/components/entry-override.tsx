import { ShieldAlertIcon } from 'lucide-react';
import { type FormEvent, useState } from 'react';

import type { EntryLog } from '@boomgate/contracts/entry-logs';

import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api-client';

import { useOverrideEntry, usePinOverrideEntry } from '@/lib/api/override-entry';

/** Who overrode a refused entry and why (issue 21), shown with the entry. */
export function OverrideNote({ entry }: { entry: Pick<EntryLog, 'override'> }) {
  if (!entry.override) return null;
  return (
    <p className="text-xs text-muted-foreground" data-testid="entry-override">
      Overridden by {entry.override.overriddenBy.name ?? 'a supervisor'}
      {entry.override.enteredBy &&
        ` (PIN entered by ${entry.override.enteredBy.name ?? 'a guard'})`}
      : {entry.override.reason}
    </p>
  );
}

/**
 * Issue 21: a tenant_admin or back_office user overrides a refused entry with a reason, so nobody
 * opens the barrier by hand around the system. The screen shows it only to them (the
 * `overrideEntries` action), on refused entries.
 */
export function OverrideEntryButton({ entry }: { entry: EntryLog }) {
  const override = useOverrideEntry();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  if (entry.entryGranted || entry.override) return null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await override.mutateAsync({ id: entry.id, reason });
      toast({ title: 'Entry Overridden', description: `${entry.plateNumber}: ${reason}` });
      setOpen(false);
      setReason('');
    } catch (error) {
      toast({
        variant: 'destructive',
        title: 'Override Failed',
        description: getErrorMessage(error, 'Could not override the entry'),
      });
    }
  };

  return (
    <>
      <Button size="sm" variant="outline" onClick={() => setOpen(true)}>
        <ShieldAlertIcon aria-hidden />
        Override
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent>
          <form className="grid gap-4" onSubmit={(event) => void submit(event)}>
            <DialogHeader>
              <DialogTitle>Override refused entry</DialogTitle>
              <DialogDescription>
                {entry.plateNumber} was refused. The override grants this one entry and is recorded
                with your name and reason.
              </DialogDescription>
            </DialogHeader>
            <Field id="override-reason" label="Reason">
              <Input
                id="override-reason"
                value={reason}
                onChange={(event) => setReason(event.target.value)}
                required
                minLength={3}
                maxLength={500}
              />
            </Field>
            <DialogFooter>
              <Button type="submit" disabled={override.isPending}>
                {override.isPending && <Spinner />}
                Override Entry
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      </Dialog>
    </>
  );
}

/**
 * Issue 21: at the gate, a guard overrides a refusal with a supervisor's one-time PIN (when the
 * organization has PINs turned on; the server says so otherwise) and a reason. The override is
 * in the supervisor's name and records the guard.
 */
export function PinOverrideButton({
  entryId,
  plateNumber,
  onOverridden,
}: {
  entryId: string;
  plateNumber: string | null;
  onOverridden: (entry: EntryLog) => void;
}) {
  const override = usePinOverrideEntry();
  const [open, setOpen] = useState(false);
  const [pin, setPin] = useState('');
  const [reason, setReason] = useState('');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const entry = await override.mutateAsync({ id: entryId, pin, reason });
      toast({ title: 'Entry Overridden', description: `${plateNumber ?? ''}: ${reason}` });
      setOpen(false);
      onOverridden(entry);
    } catch (error) {
      // A wrong PIN is spent from the guard's few attempts: clear it, keep the reason.
      setPin('');
      toast({
        variant: 'destructive',
        title: 'Override Failed',
        description: getErrorMessage(error, 'Could not override the entry'),
      });
    }
  };

  return (
    <>
      <Button size="lg" variant="outline" onClick={() => setOpen(true)}>
        <ShieldAlertIcon aria-hidden />
        Supervisor PIN
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent>
          <form className="grid gap-4" onSubmit={(event) => void submit(event)}>
            <DialogHeader>
              <DialogTitle>Override with a supervisor PIN</DialogTitle>
              <DialogDescription>
                Ask a supervisor for a one-time PIN. The override grants this one entry and is
                recorded in the supervisor&apos;s name, with yours and the reason.
              </DialogDescription>
            </DialogHeader>
            <Field id="override-pin" label="PIN">
              <Input
                id="override-pin"
                value={pin}
                onChange={(event) => setPin(event.target.value.replace(/\D/g, '').slice(0, 6))}
                inputMode="numeric"
                autoComplete="one-time-code"
                pattern="\d{6}"
                required
                className="font-mono text-2xl tracking-widest"
              />
            </Field>
            <Field id="pin-override-reason" label="Reason">
              <Input
                id="pin-override-reason"
                value={reason}
                onChange={(event) => setReason(event.target.value)}
                required
                minLength={3}
                maxLength={500}
              />
            </Field>
            <DialogFooter>
              <Button type="submit" size="lg" disabled={override.isPending || pin.length !== 6}>
                {override.isPending && <Spinner />}
                Override Entry
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      </Dialog>
    </>
  );
}
