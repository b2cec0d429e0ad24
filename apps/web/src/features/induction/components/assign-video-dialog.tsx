import { UserPlusIcon } from 'lucide-react';
import { useState } from 'react';

import {
  CreateInductionAssignmentBodySchema,
  type SafetyVideoSummary,
} from '@boomgate/contracts/induction';

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
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api-client';
import { IMAGE_FILE_ACCEPT, checkImageFile, uploadedImageDataUrl } from '@/lib/image-file';

import { useCreateAssignment } from '../api/induction';

const empty = { videoId: '', driverName: '', driverIdNumber: '', photo: null as File | null };

/** Assigns a video to a driver (name, ID number, optional photo for recognising them). */
export function AssignVideoDialog({ videos }: { videos: SafetyVideoSummary[] }) {
  const [open, setOpen] = useState(false);
  const [form, setForm] = useState(empty);
  const [problem, setProblem] = useState<string | null>(null);
  const createAssignment = useCreateAssignment();

  const handleOpenChange = (isOpen: boolean) => {
    setOpen(isOpen);
    if (!isOpen) {
      setForm(empty);
      setProblem(null);
    }
  };

  const handleSubmit = async () => {
    if (!form.videoId) {
      setProblem('Choose a video.');
      return;
    }
    const parsed = CreateInductionAssignmentBodySchema.safeParse({
      videoId: form.videoId,
      driverName: form.driverName,
      driverIdNumber: form.driverIdNumber,
    });
    if (!parsed.success) {
      setProblem(parsed.error.issues[0]?.message ?? 'Check the form.');
      return;
    }
    let driverImage: string | undefined;
    if (form.photo) {
      const fileProblem = checkImageFile(form.photo);
      if (fileProblem) {
        setProblem(
          fileProblem === 'too-large'
            ? 'Please upload an image smaller than 10MB.'
            : 'The photo must be a PNG, JPEG or WebP image.',
        );
        return;
      }
      driverImage = await uploadedImageDataUrl(form.photo);
    }
    setProblem(null);
    createAssignment.mutate(
      { ...parsed.data, driverImage },
      {
        onSuccess: (assignment) => {
          toast({
            title: 'Video Assigned',
            description: `${assignment.driverName} can now take the induction.`,
          });
          handleOpenChange(false);
        },
        onError: (error) =>
          toast({
            variant: 'destructive',
            title: 'Assignment Failed',
            description: getErrorMessage(error, 'Failed to assign the video'),
          }),
      },
    );
  };

  return (
    <Dialog open={open} onOpenChange={handleOpenChange}>
      <DialogTrigger asChild>
        <Button variant="outline" disabled={videos.length === 0}>
          <UserPlusIcon aria-hidden />
          Assign Video
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Assign Safety Video</DialogTitle>
          <DialogDescription>
            The driver watches the video and takes its quiz on the induction page.
          </DialogDescription>
        </DialogHeader>
        <form
          noValidate
          className="grid gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            void handleSubmit();
          }}
        >
          <Field id="assign-video" label="Video">
            <Select
              value={form.videoId}
              onValueChange={(videoId) => setForm((current) => ({ ...current, videoId }))}
            >
              <SelectTrigger id="assign-video">
                <SelectValue placeholder="Choose a video" />
              </SelectTrigger>
              <SelectContent>
                {videos.map((video) => (
                  <SelectItem key={video.id} value={video.id}>
                    {video.title}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </Field>
          <Field id="assign-driver-name" label="Driver name">
            <Input
              id="assign-driver-name"
              autoComplete="off"
              value={form.driverName}
              onChange={(event) =>
                setForm((current) => ({ ...current, driverName: event.target.value }))
              }
            />
          </Field>
          <Field id="assign-driver-id" label="ID number">
            <Input
              id="assign-driver-id"
              autoComplete="off"
              inputMode="numeric"
              maxLength={13}
              value={form.driverIdNumber}
              onChange={(event) =>
                setForm((current) => ({ ...current, driverIdNumber: event.target.value }))
              }
            />
          </Field>
          <Field id="assign-driver-photo" label="Driver photo (optional)">
            <Input
              id="assign-driver-photo"
              type="file"
              accept={IMAGE_FILE_ACCEPT}
              onChange={(event) =>
                setForm((current) => ({ ...current, photo: event.target.files?.[0] ?? null }))
              }
            />
          </Field>
          {problem && (
            <p role="alert" className="text-sm text-destructive">
              {problem}
            </p>
          )}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => handleOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={createAssignment.isPending}>
              {createAssignment.isPending && <Spinner />}
              Assign
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
