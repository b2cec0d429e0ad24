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
import { useTranslation } from '@/lib/i18n';

import { useOverrideEntry, usePinOverrideEntry } from '@/lib/api/override-entry';

/** Who overrode a refused entry and why (issue 21), shown with the entry. */
export function OverrideNote({ entry }: { entry: Pick<EntryLog, 'override'> }) {
  const { t } = useTranslation('common');
  if (!entry.override) return null;
  const by = entry.override.overriddenBy.name ?? t('override.aSupervisor');
  const { enteredBy, reason } = entry.override;
  return (
    <p className="text-xs text-muted-foreground" data-testid="entry-override">
      {enteredBy
        ? t('override.noteWithPin', { by, guard: enteredBy.name ?? t('override.aGuard'), reason })
        : t('override.note', { by, reason })}
    </p>
  );
}

/** The toast of a failed override, with the server's reason. */
function useOverrideFailed() {
  const { t } = useTranslation('common');
  return (error: unknown) =>
    toast({
      variant: 'destructive',
      title: t('override.failed'),
      description: getErrorMessage(error, t('override.failedFallback')),
    });
}

/**
 * Issue 21: a tenant_admin or back_office user overrides a refused entry with a reason, so nobody
 * opens the barrier by hand around the system. The screen shows it only to them (the
 * `overrideEntries` action), on refused entries.
 */
export function OverrideEntryButton({ entry }: { entry: EntryLog }) {
  const { t } = useTranslation('common');
  const overrideFailed = useOverrideFailed();
  const override = useOverrideEntry();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  if (entry.entryGranted || entry.override) return null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await override.mutateAsync({ id: entry.id, reason });
      toast({ title: t('override.done'), description: `${entry.plateNumber}: ${reason}` });
      setOpen(false);
      setReason('');
    } catch (error) {
      overrideFailed(error);
    }
  };

  return (
    <>
      <Button size="sm" variant="outline" onClick={() => setOpen(true)}>
        <ShieldAlertIcon aria-hidden />
        {t('override.button')}
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent>
          <form className="grid gap-4" onSubmit={(event) => void submit(event)}>
            <DialogHeader>
              <DialogTitle>{t('override.title')}</DialogTitle>
              <DialogDescription>
                {t('override.description', { plate: entry.plateNumber })}
              </DialogDescription>
            </DialogHeader>
            <Field id="override-reason" label={t('override.reason')}>
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
                {t('override.submit')}
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
  const { t } = useTranslation('common');
  const overrideFailed = useOverrideFailed();
  const override = usePinOverrideEntry();
  const [open, setOpen] = useState(false);
  const [pin, setPin] = useState('');
  const [reason, setReason] = useState('');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const entry = await override.mutateAsync({ id: entryId, pin, reason });
      toast({ title: t('override.done'), description: `${plateNumber ?? ''}: ${reason}` });
      setOpen(false);
      onOverridden(entry);
    } catch (error) {
      // A wrong PIN is spent from the guard's few attempts: clear it, keep the reason.
      setPin('');
      overrideFailed(error);
    }
  };

  return (
    <>
      <Button size="lg" variant="outline" onClick={() => setOpen(true)}>
        <ShieldAlertIcon aria-hidden />
        {t('override.pinButton')}
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent>
          <form className="grid gap-4" onSubmit={(event) => void submit(event)}>
            <DialogHeader>
              <DialogTitle>{t('override.pinTitle')}</DialogTitle>
              <DialogDescription>{t('override.pinDescription')}</DialogDescription>
            </DialogHeader>
            <Field id="override-pin" label={t('override.pin')}>
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
            <Field id="pin-override-reason" label={t('override.reason')}>
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
                {t('override.submit')}
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      </Dialog>
    </>
  );
}
