import { CopyIcon, TriangleAlertIcon } from 'lucide-react';
import { type FormEvent, useState } from 'react';

import type { CreatedAnprCamera } from '@boomgate/contracts/anpr';

import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { LoadingScreen, Spinner } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api-client';
import { useSites } from '@/lib/api/sites';
import { formatDate, formatTime } from '@/lib/format';
import { i18next, useTranslation } from '@/lib/i18n';

import { useAnprCameras, useCreateAnprCamera, useDeleteAnprCamera } from '../api/anpr-cameras';
import { CameraSite, CameraSiteSelect } from './camera-site';

const when = (value: string | null) =>
  value ? `${formatDate(value)} ${formatTime(value)}` : i18next.t('integrations:cameras.never');
const absolute = (path: string) =>
  path.startsWith('/') ? `${window.location.origin}${path}` : path;

/** ANPR cameras (tenant admins): register a camera (push URL shown once), list and remove. */
export function AnprCameras() {
  const { t } = useTranslation('integrations');
  const cameras = useAnprCameras();
  const create = useCreateAnprCamera();
  const remove = useDeleteAnprCamera();
  const sites = useSites().data ?? [];
  const [name, setName] = useState('');
  // Issue 16: '' is the default site (the server's choice); several sites show a picker.
  const [siteId, setSiteId] = useState('');
  const [created, setCreated] = useState<CreatedAnprCamera | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) {
      toast({ variant: 'destructive', title: t('error'), description: t('cameras.nameIt') });
      return;
    }
    create.mutate(
      { name: name.trim(), ...(siteId && { siteId }) },
      {
        onSuccess: (camera) => {
          setCreated(camera);
          setName('');
          toast({
            title: t('cameras.added'),
            description: t('cameras.addedDetail'),
          });
        },
        onError: (error) =>
          toast({
            variant: 'destructive',
            title: t('error'),
            description: getErrorMessage(error, t('cameras.addFailed')),
          }),
      },
    );
  };

  const handleDelete = (id: string) =>
    remove.mutate(id, {
      onSuccess: () => {
        setConfirming(null);
        toast({ title: t('cameras.removed'), description: t('cameras.removedDetail') });
      },
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: t('error'),
          description: getErrorMessage(error, t('cameras.removeFailed')),
        }),
    });

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('cameras.title')}</CardTitle>
        <CardDescription>{t('cameras.description')}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {created && (
          <Alert variant="warning" data-testid="new-camera">
            <TriangleAlertIcon aria-hidden />
            <AlertTitle>{t('cameras.copyNow', { name: created.name })}</AlertTitle>
            <AlertDescription className="grid gap-3">
              <p>{t('cameras.holdsSecret')}</p>
              <div className="flex gap-2">
                <Input
                  aria-label={t('cameras.pushUrl')}
                  readOnly
                  value={absolute(created.pushUrl)}
                  className="font-mono"
                />
                <Button
                  type="button"
                  variant="outline"
                  aria-label={t('cameras.copyPushUrl')}
                  onClick={() =>
                    void navigator.clipboard
                      ?.writeText(absolute(created.pushUrl))
                      .then(() =>
                        toast({
                          title: t('cameras.copied'),
                          description: t('cameras.copiedDetail'),
                        }),
                      )
                      .catch(() => undefined)
                  }
                >
                  <CopyIcon aria-hidden />
                </Button>
              </div>
              <Button type="button" variant="outline" onClick={() => setCreated(null)}>
                {t('cameras.configured')}
              </Button>
            </AlertDescription>
          </Alert>
        )}
        <form className="flex flex-wrap items-end gap-2" onSubmit={handleSubmit} noValidate>
          <div className="grid min-w-56 flex-1 gap-2">
            <Label htmlFor="camera-name">{t('cameras.name')}</Label>
            <Input
              id="camera-name"
              placeholder={t('cameras.namePlaceholder')}
              maxLength={80}
              value={name}
              onChange={(event) => setName(event.target.value)}
            />
          </div>
          <CameraSiteSelect
            id="camera-site"
            label={t('cameras.site')}
            sites={sites}
            value={siteId}
            onChange={setSiteId}
          />
          <Button type="submit" disabled={create.isPending}>
            {create.isPending && <Spinner />}
            {t('cameras.add')}
          </Button>
        </form>
        {cameras.isPending ? (
          <LoadingScreen label={t('cameras.loading')} />
        ) : cameras.isError ? (
          <p role="alert" className="text-sm text-destructive">
            {getErrorMessage(cameras.error, t('cameras.loadFailed'))}
          </p>
        ) : cameras.data.length === 0 ? (
          <p className="py-4 text-center text-sm text-muted-foreground">{t('cameras.none')}</p>
        ) : (
          <ul className="grid gap-2">
            {cameras.data.map((camera) => (
              <li
                key={camera.id}
                data-testid="camera-row"
                className="flex flex-wrap items-center justify-between gap-2 rounded-md border p-3"
              >
                <div>
                  <div className="font-medium">{camera.name}</div>
                  <div className="text-xs text-muted-foreground">
                    {t('cameras.lastSeen', { when: when(camera.lastSeenAt) })}
                  </div>
                </div>
                <CameraSite camera={camera} sites={sites} />
                {confirming === camera.id ? (
                  <div className="flex gap-2">
                    <Button
                      size="sm"
                      variant="destructive"
                      onClick={() => handleDelete(camera.id)}
                      disabled={remove.isPending}
                    >
                      {t('cameras.confirmRemove')}
                    </Button>
                    <Button size="sm" variant="outline" onClick={() => setConfirming(null)}>
                      {t('cameras.keep')}
                    </Button>
                  </div>
                ) : (
                  <Button
                    size="sm"
                    variant="outline"
                    aria-label={t('cameras.removeNamed', { name: camera.name })}
                    onClick={() => setConfirming(camera.id)}
                  >
                    {t('cameras.remove')}
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
