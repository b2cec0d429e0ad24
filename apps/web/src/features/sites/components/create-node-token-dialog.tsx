import { KeyRoundIcon, TriangleAlertIcon } from 'lucide-react';
import { type FormEvent, useState } from 'react';

import type { CreatedSiteNodeToken } from '@boomgate/contracts/site-sync';

import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { getErrorMessage } from '@/lib/api-client';
import { useTranslation } from '@/lib/i18n';

import { useCreateNodeToken } from '../api/node-tokens';

/** A value shown once, read-only, selected on focus so it can be copied. */
function OnceField({ id, label, value }: { id: string; label: string; value: string }) {
  return (
    <div className="grid gap-1">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        readOnly
        value={value}
        className="font-mono text-xs"
        onFocus={(event) => event.currentTarget.select()}
      />
    </div>
  );
}

/**
 * Issue 28: creates a site node token. The token (and the key the node pins) are shown once, in
 * the dialog; closing it forgets them.
 */
export function CreateNodeTokenDialog({ siteId, siteName }: { siteId: string; siteName: string }) {
  const { t } = useTranslation('settings');
  const create = useCreateNodeToken(siteId);
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [created, setCreated] = useState<CreatedSiteNodeToken | null>(null);

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (!next) {
      setCreated(null);
      setName('');
      create.reset();
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ name: name.trim() }, { onSuccess: setCreated });
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button type="button" variant="outline" size="sm">
          <KeyRoundIcon aria-hidden />
          {t('siteNodes.create')}
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{t('siteNodes.createTitle', { site: siteName })}</DialogTitle>
          <DialogDescription>{t('siteNodes.createDescription')}</DialogDescription>
        </DialogHeader>
        {created ? (
          <div className="grid gap-3" data-testid="created-node-token">
            <Alert variant="warning">
              <TriangleAlertIcon aria-hidden />
              <AlertTitle>{t('siteNodes.copyNow')}</AlertTitle>
              <AlertDescription>{t('siteNodes.shownOnce')}</AlertDescription>
            </Alert>
            <OnceField
              id={`node-token-${siteId}`}
              label={t('siteNodes.token')}
              value={created.token}
            />
            <OnceField
              id={`node-key-${siteId}`}
              label={t('siteNodes.publicKey')}
              value={created.centralPublicKey}
            />
            <DialogFooter>
              <Button type="button" onClick={() => onOpenChange(false)}>
                {t('siteNodes.done')}
              </Button>
            </DialogFooter>
          </div>
        ) : (
          <form className="grid gap-3" onSubmit={submit}>
            <div className="grid gap-1">
              <Label htmlFor={`node-name-${siteId}`}>{t('siteNodes.name')}</Label>
              <Input
                id={`node-name-${siteId}`}
                required
                maxLength={100}
                value={name}
                onChange={(event) => setName(event.target.value)}
              />
            </div>
            {create.isError ? (
              <p role="alert" className="text-sm text-destructive">
                {getErrorMessage(create.error, t('siteNodes.createFailed'))}
              </p>
            ) : null}
            <DialogFooter>
              <Button type="submit" disabled={create.isPending || !name.trim()}>
                {t('siteNodes.createButton')}
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
