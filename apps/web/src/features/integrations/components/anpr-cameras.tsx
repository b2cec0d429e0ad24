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

import { useAnprCameras, useCreateAnprCamera, useDeleteAnprCamera } from '../api/anpr-cameras';
import { CameraSite, CameraSiteSelect } from './camera-site';

const when = (value: string | null) =>
  value ? `${formatDate(value)} ${formatTime(value)}` : 'Never';
const absolute = (path: string) =>
  path.startsWith('/') ? `${window.location.origin}${path}` : path;

/** ANPR cameras (tenant admins): register a camera (push URL shown once), list and remove. */
export function AnprCameras() {
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
      toast({ variant: 'destructive', title: 'Error', description: 'Name the camera' });
      return;
    }
    create.mutate(
      { name: name.trim(), ...(siteId && { siteId }) },
      {
        onSuccess: (camera) => {
          setCreated(camera);
          setName('');
          toast({
            title: 'Camera Added',
            description: 'Copy its push URL now: it will not be shown again.',
          });
        },
        onError: (error) =>
          toast({
            variant: 'destructive',
            title: 'Error',
            description: getErrorMessage(error, 'Failed to add the camera'),
          }),
      },
    );
  };

  const handleDelete = (id: string) =>
    remove.mutate(id, {
      onSuccess: () => {
        setConfirming(null);
        toast({ title: 'Camera Removed', description: 'The camera can no longer push reads.' });
      },
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: 'Error',
          description: getErrorMessage(error, 'Failed to remove the camera'),
        }),
    });

  return (
    <Card>
      <CardHeader>
        <CardTitle>ANPR Cameras</CardTitle>
        <CardDescription>
          Number-plate cameras that push their reads to Boomgate (e.g. Hikvision alarm server / HTTP
          listening).
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {created && (
          <Alert variant="warning" data-testid="new-camera">
            <TriangleAlertIcon aria-hidden />
            <AlertTitle>Copy the push URL for {created.name} now</AlertTitle>
            <AlertDescription className="grid gap-3">
              <p>It holds the camera&apos;s secret and is shown only once.</p>
              <div className="flex gap-2">
                <Input
                  aria-label="Camera push URL"
                  readOnly
                  value={absolute(created.pushUrl)}
                  className="font-mono"
                />
                <Button
                  type="button"
                  variant="outline"
                  aria-label="Copy Camera push URL"
                  onClick={() =>
                    void navigator.clipboard
                      ?.writeText(absolute(created.pushUrl))
                      .then(() => toast({ title: 'Copied', description: 'Push URL copied.' }))
                      .catch(() => undefined)
                  }
                >
                  <CopyIcon aria-hidden />
                </Button>
              </div>
              <Button type="button" variant="outline" onClick={() => setCreated(null)}>
                I have configured the camera
              </Button>
            </AlertDescription>
          </Alert>
        )}
        <form className="flex flex-wrap items-end gap-2" onSubmit={handleSubmit} noValidate>
          <div className="grid min-w-56 flex-1 gap-2">
            <Label htmlFor="camera-name">Camera name</Label>
            <Input
              id="camera-name"
              placeholder="Main gate inbound"
              maxLength={80}
              value={name}
              onChange={(event) => setName(event.target.value)}
            />
          </div>
          <CameraSiteSelect
            id="camera-site"
            label="Camera site"
            sites={sites}
            value={siteId}
            onChange={setSiteId}
          />
          <Button type="submit" disabled={create.isPending}>
            {create.isPending && <Spinner />}
            Add Camera
          </Button>
        </form>
        {cameras.isPending ? (
          <LoadingScreen label="Loading cameras..." />
        ) : cameras.isError ? (
          <p role="alert" className="text-sm text-destructive">
            {getErrorMessage(cameras.error, 'Failed to load cameras')}
          </p>
        ) : cameras.data.length === 0 ? (
          <p className="py-4 text-center text-sm text-muted-foreground">No cameras yet</p>
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
                    Last seen: {when(camera.lastSeenAt)}
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
                      Confirm Remove
                    </Button>
                    <Button size="sm" variant="outline" onClick={() => setConfirming(null)}>
                      Keep
                    </Button>
                  </div>
                ) : (
                  <Button
                    size="sm"
                    variant="outline"
                    aria-label={`Remove ${camera.name}`}
                    onClick={() => setConfirming(camera.id)}
                  >
                    Remove
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
