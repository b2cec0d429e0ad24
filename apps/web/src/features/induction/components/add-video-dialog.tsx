import { PlusIcon, Trash2Icon } from 'lucide-react';
import { useState } from 'react';

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

import { useCreateSafetyVideo } from '../api/induction';

import {
  type QuestionDraft,
  type VideoDraft,
  emptyQuestion,
  emptyVideoDraft,
  toNewSafetyVideo,
} from './video-draft';

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
export function AddVideoDialog() {
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState<VideoDraft>(emptyVideoDraft);
  const [problem, setProblem] = useState<string | null>(null);
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

  const handleSubmit = () => {
    const built = toNewSafetyVideo(draft);
    if (!built.ok) {
      setProblem(built.message);
      return;
    }
    setProblem(null);
    createVideo.mutate(built.value, {
      onSuccess: () => {
        toast({ title: 'Video Added', description: `${built.value.title} is ready to assign.` });
        handleOpenChange(false);
      },
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: 'Upload Failed',
          description: getErrorMessage(error, 'Failed to add the video'),
        }),
    });
  };

  return (
    <Dialog open={open} onOpenChange={handleOpenChange}>
      <DialogTrigger asChild>
        <Button>
          <PlusIcon aria-hidden />
          Add Video
        </Button>
      </DialogTrigger>
      <DialogContent className="sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>Add Safety Video</DialogTitle>
          <DialogDescription>
            Upload an MP4 or WebM file (up to 50MB) or link an https video, then write the quiz.
          </DialogDescription>
        </DialogHeader>
        <form
          noValidate
          className="grid gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            handleSubmit();
          }}
        >
          <Field id="video-title" label="Title">
            <Input
              id="video-title"
              value={draft.title}
              onChange={(event) => update({ title: event.target.value })}
            />
          </Field>
          <Field id="video-description" label="Description (optional)">
            <textarea
              id="video-description"
              className={textareaClass}
              value={draft.description}
              onChange={(event) => update({ description: event.target.value })}
            />
          </Field>
          <Field id="video-pass-score" label="Pass score (%)">
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

          <fieldset className="grid gap-2">
            <legend className="mb-2 text-sm font-medium">Video</legend>
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
                  {source === 'upload' ? 'Upload a file' : 'Link (https)'}
                </label>
              ))}
            </div>
            {draft.source === 'upload' ? (
              <Field id="video-file" label="Video file">
                <Input
                  id="video-file"
                  type="file"
                  accept="video/mp4,video/webm,.mp4,.webm"
                  onChange={(event) => update({ file: event.target.files?.[0] ?? null })}
                />
              </Field>
            ) : (
              <div className="grid gap-4 sm:grid-cols-[1fr_10rem]">
                <Field id="video-url" label="Video URL">
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
                <Field id="video-duration" label="Length (seconds)">
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
                  The quiz opens only after the driver has watched this many seconds, so the length
                  must match the video (it is filled in from the link when the browser can read it).
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
                <legend className="px-1 text-sm font-medium">Question {questionIndex + 1}</legend>
                <div className="flex items-center gap-2">
                  <Label htmlFor={`question-${questionIndex}-text`} className="sr-only">
                    Question {questionIndex + 1} text
                  </Label>
                  <Input
                    id={`question-${questionIndex}-text`}
                    placeholder="Question"
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
                      aria-label={`Remove question ${questionIndex + 1}`}
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
                      aria-label={`Option ${optionIndex + 1} is correct`}
                      checked={question.correctIndex === optionIndex}
                      onChange={() => updateQuestion(questionIndex, { correctIndex: optionIndex })}
                    />
                    <Input
                      aria-label={`Question ${questionIndex + 1} option ${optionIndex + 1}`}
                      placeholder={`Option ${optionIndex + 1}`}
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
                        aria-label={`Remove option ${optionIndex + 1}`}
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
                <p className="text-xs text-muted-foreground">
                  Select the circle beside the correct option.
                </p>
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
                    Add Option
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
              Add Question
            </Button>
          </div>

          {problem && (
            <p role="alert" className="text-sm text-destructive">
              {problem}
            </p>
          )}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => handleOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={createVideo.isPending}>
              {createVideo.isPending && <Spinner />}
              Save Video
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
