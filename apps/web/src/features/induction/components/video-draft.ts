import {
  CreateSafetyVideoBodySchema,
  MAX_VIDEO_BYTES,
  VIDEO_CONTENT_TYPES,
} from '@boomgate/contracts/induction';

import type { LanguageCode } from '@boomgate/contracts/preferences';

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
  /** The language the video speaks and its quiz is written in (issue 19). */
  language: LanguageCode;
  /** The original video this is a version of in another language; '' when it is an original. */
  translationOf: string;
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
  language: 'en',
  translationOf: '',
});

const ContentSchema = CreateSafetyVideoBodySchema.omit({ video: true });

/** Keys of `induction:videoProblems`; the schema's English messages map onto them by text. */
export type VideoProblemKey =
  | 'markCorrect'
  | 'chooseFile'
  | 'fileType'
  | 'fileSize'
  | 'urlHttps'
  | 'lengthRequired'
  | 'questionRequired'
  | 'optionEmpty'
  | 'optionsMin'
  | 'optionsMax'
  | 'correctInOptions'
  | 'titleRequired'
  | 'passScoreRange'
  | 'questionsMin'
  | 'questionsMax'
  | 'lengthMax'
  | 'checkForm';

/** A problem with the draft: a catalogue key, the 1-based question it is in, and the schema's own words. */
export type VideoDraftProblem = { key: VideoProblemKey; question?: number; detail?: string };

const SCHEMA_MESSAGE_KEYS: Readonly<Record<string, VideoProblemKey>> = {
  'Question text is required': 'questionRequired',
  'Options may not be empty': 'optionEmpty',
  'A question needs at least 2 options': 'optionsMin',
  'A question may have at most 6 options': 'optionsMax',
  'The correct option must be one of the options': 'correctInOptions',
  'Title is required': 'titleRequired',
  'Pass score must be between 1 and 100': 'passScoreRange',
  'Add at least one question': 'questionsMin',
  'A quiz may have at most 50 questions': 'questionsMax',
  'The video URL must start with https://': 'urlHttps',
  'Enter the video length in seconds': 'lengthRequired',
  'The video may be at most 2 hours long': 'lengthMax',
};

/** The form's draft as the API's body, or the first problem for the manager. */
export function toNewSafetyVideo(
  draft: VideoDraft,
): { ok: true; value: NewSafetyVideo } | { ok: false; problem: VideoDraftProblem } {
  const fail = (problem: VideoDraftProblem) => ({ ok: false as const, problem });
  const unmarked = draft.questions.findIndex((question) => question.correctIndex === null);
  if (unmarked >= 0) return fail({ key: 'markCorrect', question: unmarked + 1 });
  const parsed = ContentSchema.safeParse({
    title: draft.title,
    description: draft.description,
    passScore: Number(draft.passScore),
    questions: draft.questions.map((question) => ({
      question: question.question,
      options: question.options,
      correctIndex: question.correctIndex,
    })),
    language: draft.language,
    translationOf: draft.translationOf || null,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const question =
      issue?.path[0] === 'questions' && issue.path.length > 1
        ? Number(issue.path[1]) + 1
        : undefined;
    const key = (issue && SCHEMA_MESSAGE_KEYS[issue.message]) ?? 'checkForm';
    return fail({
      key,
      ...(question === undefined ? {} : { question }),
      ...(key === 'checkForm' && issue ? { detail: issue.message } : {}),
    });
  }
  if (draft.source === 'upload') {
    if (!draft.file) return fail({ key: 'chooseFile' });
    if (!(VIDEO_CONTENT_TYPES as readonly string[]).includes(draft.file.type)) {
      return fail({ key: 'fileType' });
    }
    if (draft.file.size > MAX_VIDEO_BYTES) return fail({ key: 'fileSize' });
    return { ok: true, value: { ...parsed.data, video: { kind: 'upload', file: draft.file } } };
  }
  const url = draft.url.trim();
  if (!/^https:\/\/\S+$/.test(url)) return fail({ key: 'urlHttps' });
  const durationSeconds = Number(draft.durationSeconds);
  if (!Number.isFinite(durationSeconds) || durationSeconds <= 0) {
    return fail({ key: 'lengthRequired' });
  }
  return { ok: true, value: { ...parsed.data, video: { kind: 'url', url, durationSeconds } } };
}
