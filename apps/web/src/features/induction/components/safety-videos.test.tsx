import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import type { InductionAssignment, SafetyVideoSummary } from '@boomgate/contracts/induction';

import { i18next } from '@/lib/i18n';
import { aSession } from '@/testing/data';
import { aSafetyVideo, anInductionAssignment, createInductionApi } from '@/testing/induction-api';
import { apiError, signedIn } from '@/testing/handlers';
import { expectToast, renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';

const siteSafety = aSafetyVideo({
  title: 'Site safety',
  durationSeconds: 125,
  questionCount: 3,
  passScore: 80,
  assignmentCount: 1,
});
const hosted = aSafetyVideo({
  title: 'Blasting zones',
  source: 'url',
  videoUrl: 'https://videos.example.com/blasting.mp4',
  durationSeconds: 45,
  questionCount: 2,
  passScore: 100,
});
const passed = anInductionAssignment({
  videoId: siteSafety.id,
  videoTitle: siteSafety.title,
  driverName: 'Thabo Mokoena',
  driverIdNumber: '8001015009087',
  status: 'passed',
  attempts: 2,
  lastAttemptAt: '2026-11-21T12:00:00.000Z',
  lastScore: 100,
});

function setUp(
  initial: { videos?: SafetyVideoSummary[]; assignments?: InductionAssignment[] } = {
    videos: [siteSafety, hosted],
    assignments: [passed],
  },
) {
  const api = createInductionApi(initial);
  server.use(signedIn(aSession({ user: { role: 'back_office' } })), ...api.handlers);
  const view = renderApp('/safety-videos');
  return { ...view, api };
}

async function openAddVideo(user: UserEvent) {
  await user.click(await screen.findByRole('button', { name: 'Add Video' }));
  return screen.findByRole('dialog', { name: 'Add Safety Video' });
}

/** Saves the form and returns the message it shows (or null when it shows none). */
async function save(user: UserEvent, dialog: HTMLElement) {
  await user.click(within(dialog).getByRole('button', { name: 'Save Video' }));
  return within(dialog).queryByRole('alert')?.textContent ?? null;
}

/** Fills the title and the first question with two options, the second one correct. */
async function fillQuiz(user: UserEvent, dialog: HTMLElement) {
  await user.type(within(dialog).getByLabelText('Title'), 'Haul road rules');
  await user.type(within(dialog).getByLabelText('Question 1 text'), 'Who has right of way?');
  await user.type(within(dialog).getByLabelText('Question 1 option 1'), 'Light vehicles');
  await user.type(within(dialog).getByLabelText('Question 1 option 2'), 'Haul trucks');
  await user.click(within(dialog).getByRole('radio', { name: 'Option 2 is correct' }));
}

describe('Safety Videos', () => {
  it('speaks the chosen language, with the counts as plurals and the add dialog', async () => {
    await i18next.changeLanguage('zu');
    const { user } = setUp();
    // The language a signed-in user picks is saved for them on the server.
    server.use(http.patch('/api/auth/preferences', () => HttpResponse.json({ language: 'zu' })));

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Amavidiyo Ezokuphepha' }),
    ).toBeInTheDocument();
    expect(await screen.findByText('amavidiyo angu-2')).toBeInTheDocument();
    expect(screen.getByText('umsebenzi ongu-1')).toBeInTheDocument();
    const assignment = screen.getByTestId(`assignment-row-${passed.id}`);
    expect(within(assignment).getByText('Kuphumelele')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Engeza Ividiyo' }));
    const dialog = await screen.findByRole('dialog', { name: 'Engeza Ividiyo Yezokuphepha' });
    await user.click(within(dialog).getByRole('button', { name: 'Londoloza Ividiyo' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Maka inketho elungile yombuzo 1.');
  });

  it('lists the videos and the assignments with their status', async () => {
    setUp();

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Safety Videos' }),
    ).toBeInTheDocument();
    expect(await screen.findByText('2 videos')).toBeInTheDocument();
    const video = screen.getByTestId(`video-row-${siteSafety.id}`);
    expect(
      within(video)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['Site safety', 'English', '2 min 5 s', '3', '80%', '1', '']);
    const link = screen.getByTestId(`video-row-${hosted.id}`);
    expect(within(link).getByText('Link')).toBeInTheDocument();
    expect(within(link).getByText('45 s')).toBeInTheDocument();

    expect(screen.getByText('1 assignment')).toBeInTheDocument();
    const assignment = screen.getByTestId(`assignment-row-${passed.id}`);
    expect(within(assignment).getByText('Thabo Mokoena')).toBeInTheDocument();
    expect(within(assignment).getByText('8001015009087')).toBeInTheDocument();
    expect(within(assignment).getByText('Site safety')).toBeInTheDocument();
    expect(within(assignment).getByText('Passed')).toBeInTheDocument();
    expect(within(assignment).getByText(/^Nov 21, 2026 /)).toBeInTheDocument();
    expect(within(assignment).getByRole('link', { name: 'Open' })).toHaveAttribute(
      'href',
      `/safety-induction/${passed.id}`,
    );
  });

  it('says when there are no videos or assignments, and offers no assignment yet', async () => {
    setUp({ videos: [], assignments: [] });

    expect(await screen.findByText('No safety videos yet. Add one to start.')).toBeInTheDocument();
    expect(await screen.findByText('No assignments yet.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Assign Video' })).toBeDisabled();
  });

  it('explains what is missing in the quiz, one thing at a time, and sends nothing', async () => {
    const { user, api } = setUp();
    const dialog = await openAddVideo(user);

    expect(await save(user, dialog)).toBe('Mark the correct option of question 1.');
    await user.click(within(dialog).getByRole('radio', { name: 'Option 1 is correct' }));
    expect(await save(user, dialog)).toBe('Title is required');
    await user.type(within(dialog).getByLabelText('Title'), 'Haul road rules');
    expect(await save(user, dialog)).toBe('Question 1: Question text is required');
    await user.type(within(dialog).getByLabelText('Question 1 text'), 'Who has right of way?');
    expect(await save(user, dialog)).toBe('Question 1: Options may not be empty');
    await user.type(within(dialog).getByLabelText('Question 1 option 1'), 'Haul trucks');
    await user.type(within(dialog).getByLabelText('Question 1 option 2'), 'Light vehicles');
    await user.clear(within(dialog).getByLabelText('Pass score (%)'));
    await user.type(within(dialog).getByLabelText('Pass score (%)'), '0');
    expect(await save(user, dialog)).toBe('Pass score must be between 1 and 100');
    await user.clear(within(dialog).getByLabelText('Pass score (%)'));
    await user.type(within(dialog).getByLabelText('Pass score (%)'), '75');
    expect(await save(user, dialog)).toBe('Choose a video file (MP4 or WebM).');
    await user.upload(
      within(dialog).getByLabelText('Video file'),
      new File(['moov'], 'induction.mp4', { type: 'video/quicktime' }),
    );
    expect(await save(user, dialog)).toBe('Only MP4 and WebM videos are accepted.');

    expect(api.requests).toEqual([]);
  });

  it('uploads the file, then saves the video with its quiz and lists it', async () => {
    const { user, api } = setUp();
    const dialog = await openAddVideo(user);
    await fillQuiz(user, dialog);
    await user.click(within(dialog).getByRole('button', { name: 'Add Question' }));
    await user.type(within(dialog).getByLabelText('Question 2 text'), 'Speed limit?');
    await user.click(
      within(screen.getByTestId('question-1')).getByRole('button', { name: 'Add Option' }),
    );
    await user.type(within(dialog).getByLabelText('Question 2 option 1'), '80 km/h');
    await user.type(within(dialog).getByLabelText('Question 2 option 2'), '60 km/h');
    await user.type(within(dialog).getByLabelText('Question 2 option 3'), '40 km/h');
    await user.click(
      within(screen.getByTestId('question-1')).getByRole('radio', { name: 'Option 3 is correct' }),
    );
    await user.upload(
      within(dialog).getByLabelText('Video file'),
      new File([new Uint8Array(64)], 'haul-roads.mp4', { type: 'video/mp4' }),
    );

    expect(await save(user, dialog)).toBeNull();

    await expectToast('Video Added', 'Haul road rules is ready to assign.');
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Add Safety Video' })).not.toBeInTheDocument(),
    );
    expect(await screen.findByText('3 videos')).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: 'Haul road rules' })).toBeInTheDocument();
    // The raw file first, under its own type (jsdom's fetch cannot send a File's bytes).
    const [file] = api.sent('POST', '/api/safety-videos/files');
    expect(file!.headers['content-type']).toBe('video/mp4');
    const [saved] = api.sent('POST', '/api/safety-videos');
    expect(saved!.body).toEqual({
      title: 'Haul road rules',
      description: '',
      passScore: 80,
      questions: [
        {
          question: 'Who has right of way?',
          options: ['Light vehicles', 'Haul trucks'],
          correctIndex: 1,
        },
        { question: 'Speed limit?', options: ['80 km/h', '60 km/h', '40 km/h'], correctIndex: 2 },
      ],
      video: { kind: 'upload', fileKey: expect.stringMatching(/^tenant\/safety-videos\//) },
      language: 'en',
      translationOf: null,
    });
  });

  it('links an https video with the length the manager enters', async () => {
    const { user, api } = setUp();
    const dialog = await openAddVideo(user);
    await fillQuiz(user, dialog);
    await user.click(within(dialog).getByRole('radio', { name: 'Link (https)' }));

    await user.type(within(dialog).getByLabelText('Video URL'), 'http://videos.example.com/a.mp4');
    expect(await save(user, dialog)).toBe('The video URL must start with https://');
    await user.clear(within(dialog).getByLabelText('Video URL'));
    await user.type(within(dialog).getByLabelText('Video URL'), 'https://videos.example.com/a.mp4');
    expect(await save(user, dialog)).toBe('Enter the video length in seconds.');
    await user.type(within(dialog).getByLabelText('Length (seconds)'), '95');
    expect(await save(user, dialog)).toBeNull();

    await expectToast('Video Added');
    expect(api.sent('POST', '/api/safety-videos/files')).toHaveLength(0);
    expect(api.sent('POST', '/api/safety-videos')[0]!.body).toMatchObject({
      video: { kind: 'url', url: 'https://videos.example.com/a.mp4', durationSeconds: 95 },
    });
  });

  it("keeps the dialog open with the server's message when saving fails", async () => {
    const { user, api } = setUp();
    api.onCreateVideo(apiError(409, 'CONFLICT', 'This file is already used by another video.'));
    const dialog = await openAddVideo(user);
    await fillQuiz(user, dialog);
    await user.upload(
      within(dialog).getByLabelText('Video file'),
      new File([new Uint8Array(8)], 'again.webm', { type: 'video/webm' }),
    );

    await save(user, dialog);

    await expectToast('Upload Failed', 'This file is already used by another video.');
    expect(screen.getByRole('dialog', { name: 'Add Safety Video' })).toBeInTheDocument();
    expect(screen.getByText('2 videos')).toBeInTheDocument();
  });

  it('assigns a video to a driver after checking the form, and lists the assignment', async () => {
    const { user, api } = setUp();
    await user.click(await screen.findByRole('button', { name: 'Assign Video' }));
    const dialog = await screen.findByRole('dialog', { name: 'Assign Safety Video' });
    const assign = async () => {
      await user.click(within(dialog).getByRole('button', { name: 'Assign' }));
      return within(dialog).queryByRole('alert')?.textContent ?? null;
    };

    expect(await assign()).toBe('Choose a video.');
    await user.click(within(dialog).getByRole('combobox', { name: 'Video' }));
    await user.click(await screen.findByRole('option', { name: 'Blasting zones · English' }));
    expect(await assign()).toBe('Driver name is required');
    await user.type(within(dialog).getByLabelText('Driver name'), 'Sipho Nkosi');
    expect(await assign()).toBe('ID number is required');
    await user.type(within(dialog).getByLabelText('ID number'), '8001015009087');
    expect(await assign()).toBeNull();

    await expectToast('Video Assigned', 'Sipho Nkosi can now take the induction.');
    expect(api.sent('POST', '/api/induction/assignments')[0]!.body).toEqual({
      videoId: hosted.id,
      driverName: 'Sipho Nkosi',
      driverIdNumber: '8001015009087',
    });
    expect(await screen.findByText('2 assignments')).toBeInTheDocument();
    const row = screen
      .getAllByRole('row')
      .find((candidate) => within(candidate).queryByText('Sipho Nkosi'));
    expect(row).toBeDefined();
    expect(within(row!).getByText('Blasting zones')).toBeInTheDocument();
    expect(within(row!).getByText('Assigned')).toBeInTheDocument();
  });

  it("saves a video as another language's version and assigns in the driver's (issue 19)", async () => {
    const { user, api } = setUp();
    const dialog = await openAddVideo(user);
    await fillQuiz(user, dialog);
    await user.selectOptions(within(dialog).getByLabelText('Language of the video and quiz'), 'zu');
    await user.selectOptions(
      within(dialog).getByLabelText('Version of'),
      within(dialog).getByRole('option', { name: 'Site safety (English)' }),
    );
    await user.click(within(dialog).getByRole('radio', { name: 'Link (https)' }));
    await user.type(
      within(dialog).getByLabelText('Video URL'),
      'https://videos.example.com/zu.mp4',
    );
    await user.type(within(dialog).getByLabelText('Length (seconds)'), '95');
    expect(await save(user, dialog)).toBeNull();
    await expectToast('Video Added');
    expect(api.sent('POST', '/api/safety-videos')[0]!.body).toMatchObject({
      language: 'zu',
      translationOf: siteSafety.id,
    });
    // A linked video's title cell also says "Link".
    const row = (await screen.findByText('Haul road rules')).closest('tr')!;
    expect(within(row).getByRole('cell', { name: 'isiZulu' })).toBeInTheDocument();

    // Assigned from the English original to a Zulu-speaking driver: the Zulu version.
    await user.click(screen.getByRole('button', { name: 'Assign Video' }));
    const assignDialog = await screen.findByRole('dialog', { name: 'Assign Safety Video' });
    await user.click(within(assignDialog).getByRole('combobox', { name: 'Video' }));
    await user.click(await screen.findByRole('option', { name: 'Site safety · English' }));
    await user.selectOptions(within(assignDialog).getByLabelText("Driver's language"), 'zu');
    await user.type(within(assignDialog).getByLabelText('Driver name'), 'Sipho Nkosi');
    await user.type(within(assignDialog).getByLabelText('ID number'), '8001015009087');
    await user.click(within(assignDialog).getByRole('button', { name: 'Assign' }));
    await expectToast('Video Assigned', 'Sipho Nkosi can now take the induction.');
    expect(api.sent('POST', '/api/induction/assignments')[0]!.body).toMatchObject({
      videoId: siteSafety.id,
      driverLanguage: 'zu',
    });
  });

  it("says so when the driver's language has no version (issue 19)", async () => {
    const { user } = setUp();
    await user.click(await screen.findByRole('button', { name: 'Assign Video' }));
    const dialog = await screen.findByRole('dialog', { name: 'Assign Safety Video' });
    await user.click(within(dialog).getByRole('combobox', { name: 'Video' }));
    await user.click(await screen.findByRole('option', { name: 'Blasting zones · English' }));
    await user.selectOptions(within(dialog).getByLabelText("Driver's language"), 'pt');
    await user.type(within(dialog).getByLabelText('Driver name'), 'João Matola');
    await user.type(within(dialog).getByLabelText('ID number'), '8001015009087');
    await user.click(within(dialog).getByRole('button', { name: 'Assign' }));
    await expectToast(
      'Video Assigned',
      'João Matola can now take the induction. There is no version in Português: assigned in English.',
    );
  });

  it('refuses to delete a video that is still assigned, with the reason', async () => {
    const { user, api } = setUp();
    const video = await screen.findByTestId(`video-row-${siteSafety.id}`);

    await user.click(within(video).getByRole('button', { name: 'Delete Site safety' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete Video?' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));

    await expectToast(
      'Delete Failed',
      'This video still has assignments. Remove its assignments first.',
    );
    expect(api.sent('DELETE', `/api/safety-videos/${siteSafety.id}`)).toHaveLength(1);
    expect(screen.getByTestId(`video-row-${siteSafety.id}`)).toBeInTheDocument();
  });
});
