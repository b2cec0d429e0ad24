import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import type {
  InductionAssignment,
  InductionResult,
  SafetyVideo,
} from '@boomgate/contracts/induction';

import { aSession } from '@/testing/data';
import { apiError, signedIn } from '@/testing/handlers';
import { expectToast, renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';

const ASSIGNMENT_ID = '6b1f0d7e-4a57-4a5e-9a43-0f2f4f1b8c11';
const VIDEO_ID = '0e2d7c7a-2a3b-4d5e-8f90-1a2b3c4d5e6f';

const video: SafetyVideo = {
  id: VIDEO_ID,
  title: 'Site safety',
  description: 'Walkways, speed, PPE',
  videoUrl: `/api/safety-videos/${VIDEO_ID}/file`,
  passScore: 67,
  durationSeconds: 30,
  questions: [
    { question: 'Where do pedestrians walk?', options: ['Roadway', 'Marked walkway'] },
    { question: 'Speed limit on site?', options: ['20 km/h', '60 km/h'] },
    { question: 'Hard hat required?', options: ['Yes', 'No'] },
  ],
  language: 'en',
  translationOf: null,
};

function anAssignment(overrides: Partial<InductionAssignment> = {}): InductionAssignment {
  return {
    id: ASSIGNMENT_ID,
    videoId: VIDEO_ID,
    videoTitle: video.title,
    driverName: 'Sipho Nkosi',
    driverIdNumber: '8001015009087',
    driverImage: null,
    status: 'in_progress',
    attempts: 0,
    lastAttemptAt: null,
    lastScore: null,
    watchedSeconds: 30,
    videoComplete: true,
    passedAt: null,
    createdAt: '2026-11-22T08:00:00.000Z',
    driverLanguage: null,
    videoLanguage: 'en',
    ...overrides,
  };
}

function setUp(assignment: InductionAssignment, result?: InductionResult) {
  const calls = { submitted: [] as unknown[], retakes: 0 };
  server.use(
    signedIn(aSession({ user: { role: 'security_guard' } })),
    http.get(`/api/induction/assignment/${ASSIGNMENT_ID}`, () => HttpResponse.json(assignment)),
    http.get(`/api/safety-videos/${VIDEO_ID}`, () => HttpResponse.json(video)),
    http.post('/api/induction/submit', async ({ request }) => {
      calls.submitted.push(await request.json());
      return HttpResponse.json(result);
    }),
    http.post(`/api/induction/retake/${ASSIGNMENT_ID}`, () => {
      calls.retakes += 1;
      return new HttpResponse(null, { status: 204 });
    }),
  );
  const view = renderApp(`/safety-induction/${ASSIGNMENT_ID}`);
  return { ...view, calls };
}

describe('safety induction page', () => {
  it('shows the video first and no quiz until the video has been watched', async () => {
    setUp(anAssignment({ status: 'assigned', watchedSeconds: 0, videoComplete: false }));

    expect(await screen.findByRole('button', { name: 'Start Video' })).toBeInTheDocument();
    expect(screen.getByText('Sipho Nkosi · ID 8001015009087')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Submit Quiz' })).not.toBeInTheDocument();
    expect(screen.queryByText('Where do pedestrians walk?')).not.toBeInTheDocument();
  });

  it('requires every answer, then shows the failing result with retry and rewatch', async () => {
    const { user, calls } = setUp(anAssignment(), {
      passed: false,
      score: 33,
      passScore: 67,
      correctAnswers: 1,
      totalQuestions: 3,
    });

    await user.click(await screen.findByRole('radio', { name: 'Marked walkway' }));
    await user.click(screen.getByRole('button', { name: 'Submit Quiz' }));
    await expectToast('Incomplete Quiz', 'Please answer all questions before submitting.');
    expect(calls.submitted).toHaveLength(0);

    await user.click(screen.getByRole('radio', { name: '60 km/h' }));
    await user.click(screen.getByRole('radio', { name: 'No' }));
    await user.click(screen.getByRole('button', { name: 'Submit Quiz' }));

    const result = await screen.findByTestId('induction-result');
    expect(within(result).getByText('Not Passed')).toBeInTheDocument();
    expect(within(result).getByText('You scored 33%. You need 67% to pass.')).toBeInTheDocument();
    expect(within(result).getByTestId('result-correct-answers')).toHaveTextContent('1');
    expect(within(result).getByTestId('result-total-questions')).toHaveTextContent('3');
    expect(calls.submitted).toEqual([
      { assignmentId: ASSIGNMENT_ID, responses: [1, 1, 1], videoWatchedSeconds: 30 },
    ]);

    await user.click(within(result).getByRole('button', { name: 'Retry Quiz' }));
    expect(screen.getByRole('button', { name: 'Submit Quiz' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Marked walkway' })).not.toBeChecked();

    await user.click(screen.getByRole('button', { name: 'Submit Quiz' }));
    await user.click(screen.getByRole('radio', { name: 'Marked walkway' }));
    await user.click(screen.getByRole('radio', { name: '20 km/h' }));
    await user.click(screen.getByRole('radio', { name: 'Yes' }));
    await user.click(screen.getByRole('button', { name: 'Submit Quiz' }));
    await user.click(
      within(await screen.findByTestId('induction-result')).getByRole('button', {
        name: 'Rewatch Video',
      }),
    );
    await waitFor(() => expect(calls.retakes).toBe(1));
    expect(await screen.findByTestId('induction-video')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Submit Quiz' })).not.toBeInTheDocument();
  });

  it('shows the passed icon for a passed assignment', async () => {
    setUp(anAssignment({ status: 'passed', passedAt: '2026-11-22T09:00:00.000Z', lastScore: 100 }));

    const passed = await screen.findByTestId('induction-passed');
    expect(within(passed).getByRole('img', { name: 'Passed' })).toBeInTheDocument();
    expect(within(passed).getByText('Induction Passed')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Submit Quiz' })).not.toBeInTheDocument();
  });

  it('says the assignment or video was not found', async () => {
    server.use(
      signedIn(aSession()),
      http.get(`/api/induction/assignment/${ASSIGNMENT_ID}`, () =>
        apiError(404, 'NOT_FOUND', 'Assignment not found.'),
      ),
    );
    renderApp(`/safety-induction/${ASSIGNMENT_ID}`);

    expect(
      await screen.findByText('Assignment or video not found. Please contact your supervisor.'),
    ).toBeInTheDocument();
    // Spec §8: the toast says exactly 'Failed to fetch assignment'; the server's message follows.
    await expectToast('Failed to fetch assignment', 'Assignment not found.');
    expect(screen.getByTestId('toast')).not.toHaveTextContent('Failed to fetch video');
  });

  it("toasts 'Failed to fetch video' when the video cannot be loaded", async () => {
    server.use(
      signedIn(aSession()),
      http.get(`/api/induction/assignment/${ASSIGNMENT_ID}`, () =>
        HttpResponse.json(anAssignment()),
      ),
      http.get(`/api/safety-videos/${VIDEO_ID}`, () =>
        apiError(404, 'NOT_FOUND', 'Video not found.'),
      ),
    );
    renderApp(`/safety-induction/${ASSIGNMENT_ID}`);

    await expectToast('Failed to fetch video', 'Video not found.');
    expect(screen.getByTestId('toast')).not.toHaveTextContent('Failed to fetch assignment');
  });
});
