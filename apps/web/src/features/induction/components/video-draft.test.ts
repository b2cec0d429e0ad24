import { describe, expect, it } from 'vitest';

import { emptyVideoDraft, toNewSafetyVideo, type VideoDraft } from './video-draft';

const filled = (overrides: Partial<VideoDraft> = {}): VideoDraft => ({
  ...emptyVideoDraft(),
  title: ' Site safety ',
  questions: [{ question: 'Hard hat?', options: ['Yes', 'No'], correctIndex: 0 }],
  file: new File([new Uint8Array(16)], 'induction.webm', { type: 'video/webm' }),
  ...overrides,
});

describe('toNewSafetyVideo', () => {
  it('builds the body with the file or the link', () => {
    const upload = toNewSafetyVideo(filled());
    expect(upload).toMatchObject({
      ok: true,
      value: { title: 'Site safety', passScore: 80, video: { kind: 'upload' } },
    });
    const link = toNewSafetyVideo(
      filled({ source: 'url', url: 'https://cdn.example.com/a.mp4', durationSeconds: '95' }),
    );
    expect(link).toMatchObject({
      ok: true,
      value: { video: { kind: 'url', url: 'https://cdn.example.com/a.mp4', durationSeconds: 95 } },
    });
  });

  it('names the first problem', () => {
    const unmarked = filled({
      questions: [
        { question: 'A?', options: ['1', '2'], correctIndex: 1 },
        { question: 'B?', options: ['1', '2'], correctIndex: null },
      ],
    });
    expect(toNewSafetyVideo(unmarked)).toEqual({
      ok: false,
      message: 'Mark the correct option of question 2.',
    });
    expect(toNewSafetyVideo(filled({ title: '' }))).toEqual({
      ok: false,
      message: 'Title is required',
    });
    expect(toNewSafetyVideo(filled({ passScore: '0' }))).toEqual({
      ok: false,
      message: 'Pass score must be between 1 and 100',
    });
    expect(toNewSafetyVideo(filled({ file: null }))).toEqual({
      ok: false,
      message: 'Choose a video file (MP4 or WebM).',
    });
    expect(
      toNewSafetyVideo(filled({ file: new File(['x'], 'a.mov', { type: 'video/quicktime' }) })),
    ).toEqual({ ok: false, message: 'Only MP4 and WebM videos are accepted.' });
    expect(toNewSafetyVideo(filled({ source: 'url', url: 'http://x.example/a.mp4' }))).toEqual({
      ok: false,
      message: 'The video URL must start with https://',
    });
  });
});
