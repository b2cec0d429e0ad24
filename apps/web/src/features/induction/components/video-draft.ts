import {
  CreateSafetyVideoBodySchema,
  MAX_VIDEO_BYTES,
  VIDEO_CONTENT_TYPES,
} from '@boomgate/contracts/induction';

import type { NewSafetyVideo } from '../api/induction';

export type QuestionDraft = { question: string; options: string[]; correctIndex: number | null };

export type VideoDraft = {
  title: string;
  description: string;
  passScore: string;
  source: 'upload' | 'url';
  file: File | null;
  url: string;
  durationSeconds: string;
  questions: QuestionDraft[];
};

export const emptyQuestion = (): QuestionDraft => ({
  question: '',
  options: ['', ''],
  correctIndex: null,
});

export const emptyVideoDraft = (): VideoDraft => ({
  title: '',
  description: '',
  passScore: '80',
  source: 'upload',
  file: null,
  url: '',
  durationSeconds: '',
  questions: [emptyQuestion()],
});

const ContentSchema = CreateSafetyVideoBodySchema.omit({ video: true });

/** The form's draft as the API's body, or the first problem as a sentence for the manager. */
export function toNewSafetyVideo(
  draft: VideoDraft,
): { ok: true; value: NewSafetyVideo } | { ok: false; message: string } {
  const unmarked = draft.questions.findIndex((question) => question.correctIndex === null);
  if (unmarked >= 0) {
    return { ok: false, message: `Mark the correct option of question ${unmarked + 1}.` };
  }
  const parsed = ContentSchema.safeParse({
    title: draft.title,
    description: draft.description,
    passScore: Number(draft.passScore),
    questions: draft.questions.map((question) => ({
      question: question.question,
      options: question.options,
      correctIndex: question.correctIndex,
    })),
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path[0] === 'questions' ? `Question ${Number(issue.path[1]) + 1}: ` : '';
    return { ok: false, message: `${where}${issue?.message ?? 'Check the form.'}` };
  }
  if (draft.source === 'upload') {
    if (!draft.file) return { ok: false, message: 'Choose a video file (MP4 or WebM).' };
    if (!(VIDEO_CONTENT_TYPES as readonly string[]).includes(draft.file.type)) {
      return { ok: false, message: 'Only MP4 and WebM videos are accepted.' };
    }
    if (draft.file.size > MAX_VIDEO_BYTES) {
      return { ok: false, message: 'Please upload a video smaller than 50MB.' };
    }
    return { ok: true, value: { ...parsed.data, video: { kind: 'upload', file: draft.file } } };
  }
  const url = draft.url.trim();
  if (!/^https:\/\/\S+$/.test(url)) {
    return { ok: false, message: 'The video URL must start with https://' };
  }
  const durationSeconds = Number(draft.durationSeconds);
  if (!Number.isFinite(durationSeconds) || durationSeconds <= 0) {
    return { ok: false, message: 'Enter the video length in seconds.' };
  }
  return { ok: true, value: { ...parsed.data, video: { kind: 'url', url, durationSeconds } } };
}
