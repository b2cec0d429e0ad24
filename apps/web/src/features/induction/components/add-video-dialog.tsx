import { PlusIcon, Trash2Icon } from 'lucide-react';
import { useState } from 'react';

import type { SafetyVideoSummary } from '@boomgate/contracts/induction';

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
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api-client';
import { useTranslation } from '@/lib/i18n';

import { useCreateSafetyVideo } from '../api/induction';

import {
  type QuestionDraft,
  type VideoDraft,
  type VideoDraftProblem,
  emptyQuestion,
  emptyVideoDraft,
  toNewSafetyVideo,
} from './video-draft';
import { VideoLanguageFields } from './video-language-select';

const textareaClass =
  'min-h-16 w-full rounded-md border border-input bg-transparent px-3 py-2 text-base shadow-xs outline-none focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 md:text-sm';

/** The whole seconds of a hosted video, read from its metadata; undefined when unknown. */
function probeVideoLength(url: string): Promise<number | undefined> {
  if (!/^https:\/\/\S+$/.test(url.trim())) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const probe = document.createElement('video');
    const done = (seconds: number | undefined) => {
      probe.removeAttribute('src');
      resolve(seconds);
    };
    probe.preload = 'metadata';
    probe.onloadedmetadata = () =>
      done(Number.isFinite(probe.duration) ? Math.floor(probe.duration) : undefined);
    probe.onerror = () => done(undefined);
    probe.src = url.trim();
  });
}

/** A new safety video: the file (or an https link), the pass score and the quiz with its answers. */
export function AddVideoDialog({ videos }: { videos: readonly SafetyVideoSummary[] }) {
  const { t } = useTranslation('induction');
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState<VideoDraft>(emptyVideoDraft);
  const [problem, setProblem] = useState<VideoDraftProblem | null>(null);
  const createVideo = useCreateSafetyVideo();

  const handleOpenChange = (isOpen: boolean) => {
    setOpen(isOpen);
    if (!isOpen) {
      setDraft(emptyVideoDraft());
      setProblem(null);
    }
  };
  const update = (patch: Partial<VideoDraft>) => setDraft((current) => ({ ...current, ...patch }));
  const updateQuestion = (index: number, patch: Partial<QuestionDraft>) =>
    update({
      questions: draft.questions.map((question, i) =>
        i === index ? { ...question, ...patch } : question,
      ),
    });

  const describeProblem = ({ key, question, detail }: VideoDraftProblem) => {
    if (key === 'markCorrect') return t('videoProblems.markCorrect', { number: question });
    const text =
      key === 'checkForm'
        ? t('videoProblems.checkForm', { detail: detail ?? '' })
        : t(`videoProblems.${key}`);
    return question === undefined
      ? text
      : t('videoProblems.inQuestion', { number: question, problem: text });
  };

  const handleSubmit = () => {
    const built = toNewSafetyVideo(draft);
    if (!built.ok) {
      setProblem(built.problem);
      return;
    }
    setProblem(null);
    createVideo.mutate(built.value, {
      onSuccess: () => {
        toast({
          title: t('addVideo.videoAdded'),
          description: t('addVideo.readyToAssign', { title: built.value.title }),
        });
        handleOpenChange(false);
      },
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: t('addVideo.uploadFailed'),
          description: getErrorMessage(error, t('addVideo.uploadFailedFallback')),
        }),
    });
  };

  return (
    <Dialog open={open} onOpenChange={handleOpenChange}>
      <DialogTrigger asChild>
        <Button>
          <PlusIcon aria-hidden />
          {t('addVideo.trigger')}
        </Button>
      </DialogTrigger>
      <DialogContent className="sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>{t('addVideo.title')}</DialogTitle>
          <DialogDescription>{t('addVideo.description')}</DialogDescription>
        </DialogHeader>
        <form
          noValidate
          className="grid gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            handleSubmit();
          }}
        >
          <Field id="video-title" label={t('addVideo.titleLabel')}>
            <Input
              id="video-title"
              value={draft.title}
              onChange={(event) => update({ title: event.target.value })}
            />
          </Field>
          <Field id="video-description" label={t('addVideo.descriptionLabel')}>
            <textarea
              id="video-description"
              className={textareaClass}
              value={draft.description}
              onChange={(event) => update({ description: event.target.value })}
            />
          </Field>
          <Field id="video-pass-score" label={t('addVideo.passScoreLabel')}>
            <Input
              id="video-pass-score"
              type="number"
              inputMode="numeric"
              min={1}
              max={100}
              value={draft.passScore}
              onChange={(event) => update({ passScore: event.target.value })}
            />
          </Field>

          <VideoLanguageFields
            language={draft.language}
            translationOf={draft.translationOf}
            originals={videos.filter((video) => video.translationOf === null)}
            onChange={update}
          />

          <fieldset className="grid gap-2">
            <legend className="mb-2 text-sm font-medium">{t('addVideo.videoLegend')}</legend>
            <div className="flex gap-4 text-sm">
              {(['upload', 'url'] as const).map((source) => (
                <label key={source} className="flex items-center gap-2">
                  <input
                    type="radio"
                    name="video-source"
                    className="accent-primary"
                    checked={draft.source === source}
                    onChange={() => update({ source })}
                  />
                  {source === 'upload' ? t('addVideo.sourceUpload') : t('addVideo.sourceUrl')}
                </label>
              ))}
            </div>
            {draft.source === 'upload' ? (
              <Field id="video-file" label={t('addVideo.fileLabel')}>
                <Input
                  id="video-file"
                  type="file"
                  accept="video/mp4,video/webm,.mp4,.webm"
                  onChange={(event) => update({ file: event.target.files?.[0] ?? null })}
                />
              </Field>
            ) : (
              <div className="grid gap-4 sm:grid-cols-[1fr_10rem]">
                <Field id="video-url" label={t('addVideo.urlLabel')}>
                  <Input
                    id="video-url"
                    type="url"
                    placeholder="https://"
                    value={draft.url}
                    onChange={(event) => update({ url: event.target.value })}
                    onBlur={() => {
                      // Offer the length the browser reads; the server cannot fetch the URL.
                      if (draft.durationSeconds) return;
                      void probeVideoLength(draft.url).then((seconds) => {
                        if (seconds) {
                          setDraft((current) =>
                            current.durationSeconds
                              ? current
                              : { ...current, durationSeconds: String(seconds) },
                          );
                        }
                      });
                    }}
                  />
                </Field>
                <Field id="video-duration" label={t('addVideo.lengthLabel')}>
                  <Input
                    id="video-duration"
                    type="number"
                    inputMode="numeric"
                    min={1}
                    value={draft.durationSeconds}
                    onChange={(event) => update({ durationSeconds: event.target.value })}
                  />
                </Field>
                <p className="text-xs text-muted-foreground sm:col-span-2">
                  {t('addVideo.lengthHint')}
                </p>
              </div>
            )}
          </fieldset>

          <div className="grid gap-4">
            {draft.questions.map((question, questionIndex) => (
              <fieldset
                key={questionIndex}
                className="grid gap-2 rounded-md border p-3"
                data-testid={`question-${questionIndex}`}
              >
                <legend className="px-1 text-sm font-medium">
                  {t('addVideo.questionLegend', { number: questionIndex + 1 })}
                </legend>
                <div className="flex items-center gap-2">
                  <Label htmlFor={`question-${questionIndex}-text`} className="sr-only">
                    {t('addVideo.questionTextLabel', { number: questionIndex + 1 })}
                  </Label>
                  <Input
                    id={`question-${questionIndex}-text`}
                    placeholder={t('addVideo.questionPlaceholder')}
                    value={question.question}
                    onChange={(event) =>
                      updateQuestion(questionIndex, { question: event.target.value })
                    }
                  />
                  {draft.questions.length > 1 && (
                    <Button
                      type="button"
                      variant="ghost"
                      size="icon"
                      aria-label={t('addVideo.removeQuestion', { number: questionIndex + 1 })}
                      onClick={() =>
                        update({ questions: draft.questions.filter((_, i) => i !== questionIndex) })
                      }
                    >
                      <Trash2Icon aria-hidden />
                    </Button>
                  )}
                </div>
                {question.options.map((option, optionIndex) => (
                  <div key={optionIndex} className="flex items-center gap-2">
                    <input
                      type="radio"
                      name={`question-${questionIndex}-correct`}
                      className="size-4 shrink-0 accent-primary"
                      aria-label={t('addVideo.optionCorrect', { option: optionIndex + 1 })}
                      checked={question.correctIndex === optionIndex}
                      onChange={() => updateQuestion(questionIndex, { correctIndex: optionIndex })}
                    />
                    <Input
                      aria-label={t('addVideo.optionLabel', {
                        number: questionIndex + 1,
                        option: optionIndex + 1,
                      })}
                      placeholder={t('addVideo.optionPlaceholder', { option: optionIndex + 1 })}
                      value={option}
                      onChange={(event) =>
                        updateQuestion(questionIndex, {
                          options: question.options.map((value, i) =>
                            i === optionIndex ? event.target.value : value,
                          ),
                        })
                      }
                    />
                    {question.options.length > 2 && (
                      <Button
                        type="button"
                        variant="ghost"
                        size="icon"
                        aria-label={t('addVideo.removeOption', { option: optionIndex + 1 })}
                        onClick={() =>
                          updateQuestion(questionIndex, {
                            options: question.options.filter((_, i) => i !== optionIndex),
                            correctIndex:
                              question.correctIndex === optionIndex
                                ? null
                                : question.correctIndex !== null &&
                                    question.correctIndex > optionIndex
                                  ? question.correctIndex - 1
                                  : question.correctIndex,
                          })
                        }
                      >
                        <Trash2Icon aria-hidden />
                      </Button>
                    )}
                  </div>
                ))}
                <p className="text-xs text-muted-foreground">{t('addVideo.correctHint')}</p>
                {question.options.length < 6 && (
                  <Button
                    type="button"
                    variant="outline"
                    size="sm"
                    className="justify-self-start"
                    onClick={() =>
                      updateQuestion(questionIndex, { options: [...question.options, ''] })
                    }
                  >
                    <PlusIcon aria-hidden />
                    {t('addVideo.addOption')}
                  </Button>
                )}
              </fieldset>
            ))}
            <Button
              type="button"
              variant="outline"
              className="justify-self-start"
              onClick={() => update({ questions: [...draft.questions, emptyQuestion()] })}
            >
              <PlusIcon aria-hidden />
              {t('addVideo.addQuestion')}
            </Button>
          </div>

          {problem && (
            <p role="alert" className="text-sm text-destructive">
              {describeProblem(problem)}
            </p>
          )}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => handleOpenChange(false)}>
              {t('addVideo.cancel')}
            </Button>
            <Button type="submit" disabled={createVideo.isPending}>
              {createVideo.isPending && <Spinner />}
              {t('addVideo.save')}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
