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

  it('names the first problem by its catalogue key and question', () => {
    const unmarked = filled({
      questions: [
        { question: 'A?', options: ['1', '2'], correctIndex: 1 },
        { question: 'B?', options: ['1', '2'], correctIndex: null },
      ],
    });
    const problem = (draft: VideoDraft) => {
      const result = toNewSafetyVideo(draft);
      return result.ok ? null : result.problem;
    };
    expect(problem(unmarked)).toEqual({ key: 'markCorrect', question: 2 });
    expect(problem(filled({ title: '' }))).toEqual({ key: 'titleRequired' });
    expect(problem(filled({ passScore: '0' }))).toEqual({ key: 'passScoreRange' });
    expect(
      problem(
        filled({
          questions: [
            { question: 'A?', options: ['1', '2'], correctIndex: 0 },
            { question: 'B?', options: ['1', ' '], correctIndex: 0 },
          ],
        }),
      ),
    ).toEqual({ key: 'optionEmpty', question: 2 });
    expect(problem(filled({ title: 'x'.repeat(121) }))).toMatchObject({
      key: 'checkForm',
      detail: expect.any(String),
    });
    expect(problem(filled({ file: null }))).toEqual({ key: 'chooseFile' });
    expect(
      problem(filled({ file: new File(['x'], 'a.mov', { type: 'video/quicktime' }) })),
    ).toEqual({ key: 'fileType' });
    expect(problem(filled({ source: 'url', url: 'http://x.example/a.mp4' }))).toEqual({
      key: 'urlHttps',
    });
    expect(
      problem(filled({ source: 'url', url: 'https://x.example/a.mp4', durationSeconds: '' })),
    ).toEqual({ key: 'lengthRequired' });
  });
});
