import { UserPlusIcon } from 'lucide-react';
import { useState } from 'react';

import {
  CreateInductionAssignmentBodySchema,
  type SafetyVideoSummary,
} from '@boomgate/contracts/induction';
import { LANGUAGE_NATIVE_NAMES, type LanguageCode } from '@boomgate/contracts/preferences';

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
import { useTranslation } from '@/lib/i18n';
import { IMAGE_FILE_ACCEPT, checkImageFile, uploadedImageDataUrl } from '@/lib/image-file';

import { useCreateAssignment } from '../api/induction';

import { VideoLanguageSelect } from './video-language-select';

/** The contract's English messages, as keys of `induction:assignVideo`. */
const SCHEMA_MESSAGE_KEYS: Readonly<Record<string, string>> = {
  'Driver name is required': 'driverNameRequired',
  'ID number is required': 'idNumberRequired',
  'ID number must be at most 13 characters': 'idNumberTooLong',
};

const empty = {
  videoId: '',
  driverName: '',
  driverIdNumber: '',
  photo: null as File | null,
  driverLanguage: '' as LanguageCode | '',
};

/** Assigns a video to a driver (name, ID number, optional photo for recognising them). */
export function AssignVideoDialog({ videos }: { videos: SafetyVideoSummary[] }) {
  const { t } = useTranslation('induction');
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
      setProblem(t('assignVideo.chooseVideo'));
      return;
    }
    const parsed = CreateInductionAssignmentBodySchema.safeParse({
      videoId: form.videoId,
      driverName: form.driverName,
      driverIdNumber: form.driverIdNumber,
      ...(form.driverLanguage ? { driverLanguage: form.driverLanguage } : {}),
    });
    if (!parsed.success) {
      const key = SCHEMA_MESSAGE_KEYS[parsed.error.issues[0]?.message ?? ''];
      setProblem(t(`assignVideo.${key ?? 'checkForm'}`));
      return;
    }
    let driverImage: string | undefined;
    if (form.photo) {
      const fileProblem = checkImageFile(form.photo);
      if (fileProblem) {
        setProblem(
          fileProblem === 'too-large' ? t('assignVideo.photoTooLarge') : t('assignVideo.photoType'),
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
          // Issue 19: say so when the driver's language has no version and another was assigned.
          const fallback =
            assignment.driverLanguage !== null &&
            assignment.driverLanguage !== assignment.videoLanguage;
          toast({
            title: t('assignVideo.assigned'),
            description: fallback
              ? t('assignVideo.noVersionInLanguage', {
                  name: assignment.driverName,
                  language: LANGUAGE_NATIVE_NAMES[assignment.driverLanguage ?? 'en'],
                  videoLanguage: LANGUAGE_NATIVE_NAMES[assignment.videoLanguage],
                })
              : t('assignVideo.canTake', { name: assignment.driverName }),
          });
          handleOpenChange(false);
        },
        onError: (error) =>
          toast({
            variant: 'destructive',
            title: t('assignVideo.failed'),
            description: getErrorMessage(error, t('assignVideo.failedFallback')),
          }),
      },
    );
  };

  return (
    <Dialog open={open} onOpenChange={handleOpenChange}>
      <DialogTrigger asChild>
        <Button variant="outline" disabled={videos.length === 0}>
          <UserPlusIcon aria-hidden />
          {t('assignVideo.trigger')}
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{t('assignVideo.title')}</DialogTitle>
          <DialogDescription>{t('assignVideo.description')}</DialogDescription>
        </DialogHeader>
        <form
          noValidate
          className="grid gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            void handleSubmit();
          }}
        >
          <Field id="assign-video" label={t('assignVideo.videoLabel')}>
            <Select
              value={form.videoId}
              onValueChange={(videoId) => setForm((current) => ({ ...current, videoId }))}
            >
              <SelectTrigger id="assign-video">
                <SelectValue placeholder={t('assignVideo.videoPlaceholder')} />
              </SelectTrigger>
              <SelectContent>
                {videos.map((video) => (
                  <SelectItem key={video.id} value={video.id}>
                    {video.title} · {LANGUAGE_NATIVE_NAMES[video.language]}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </Field>
          <Field id="assign-driver-language" label={t('assignVideo.driverLanguageLabel')}>
            <VideoLanguageSelect
              id="assign-driver-language"
              value={form.driverLanguage}
              emptyLabel={t('assignVideo.driverLanguageNone')}
              onChange={(driverLanguage) => setForm((current) => ({ ...current, driverLanguage }))}
            />
          </Field>
          <Field id="assign-driver-name" label={t('assignVideo.driverNameLabel')}>
            <Input
              id="assign-driver-name"
              autoComplete="off"
              value={form.driverName}
              onChange={(event) =>
                setForm((current) => ({ ...current, driverName: event.target.value }))
              }
            />
          </Field>
          <Field id="assign-driver-id" label={t('assignVideo.idNumberLabel')}>
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
          <Field id="assign-driver-photo" label={t('assignVideo.photoLabel')}>
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
              {t('assignVideo.cancel')}
            </Button>
            <Button type="submit" disabled={createAssignment.isPending}>
              {createAssignment.isPending && <Spinner />}
              {t('assignVideo.assign')}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
