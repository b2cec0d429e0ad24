import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { BrowserContext, Page } from 'playwright-core';

import type { Viewport } from './flows';
import { assert, type Flow } from './runner';

type InductionFlowContext = {
  flow: Flow;
  page: Page;
  context: BrowserContext;
  baseUrl: string;
  viewport: Viewport;
  screenshot: (name: string) => Promise<void>;
  pageErrors: string[];
};

/** The test video: this long, recorded in the browser itself (no binary fixture is downloaded). */
const VIDEO_MS = 3000;

async function expectPath(page: Page, pathname: RegExp | string) {
  await page.waitForURL(
    (url) =>
      typeof pathname === 'string' ? url.pathname === pathname : pathname.test(url.pathname),
    { timeout: 15_000 },
  );
}

async function expectHeading(page: Page, name: string) {
  await page.getByRole('heading', { level: 1, name, exact: true }).waitFor({ timeout: 15_000 });
}

/**
 * Records a short WebM in Chromium: a canvas animated for VIDEO_MS, captured with MediaRecorder.
 * Returns the bytes, so the manager can upload it like a file from their computer.
 */
async function recordTestVideo(page: Page): Promise<Buffer> {
  // A plain string: tsx would wrap named functions in a helper that does not exist in the page.
  const base64 = await page.evaluate<string>(`(async () => {
    const canvas = document.createElement('canvas');
    canvas.width = 320;
    canvas.height = 180;
    const context = canvas.getContext('2d');
    let frame = 0;
    const draw = () => {
      frame += 1;
      context.fillStyle = 'hsl(' + ((frame * 7) % 360) + ' 70% 45%)';
      context.fillRect(0, 0, canvas.width, canvas.height);
      context.fillStyle = '#fff';
      context.font = 'bold 28px sans-serif';
      context.fillText('Safety first ' + frame, 20, 100);
    };
    draw();
    const recorder = new MediaRecorder(canvas.captureStream(25), {
      mimeType: 'video/webm;codecs=vp8',
    });
    const chunks = [];
    recorder.ondataavailable = (event) => chunks.push(event.data);
    const stopped = new Promise((resolve) => { recorder.onstop = resolve; });
    const timer = setInterval(draw, 40);
    recorder.start(250);
    await new Promise((resolve) => setTimeout(resolve, ${VIDEO_MS}));
    recorder.stop();
    await stopped;
    clearInterval(timer);
    const bytes = new Uint8Array(await new Blob(chunks, { type: 'video/webm' }).arrayBuffer());
    let binary = '';
    for (let i = 0; i < bytes.length; i += 0x8000) {
      binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    }
    return btoa(binary);
  })()`);
  return Buffer.from(base64, 'base64');
}

async function answer(page: Page, options: string[]) {
  for (const option of options)
    await page.getByRole('radio', { name: option, exact: true }).check();
}

/** Plays the induction video from the start to its end, then waits for the quiz. */
async function watchToTheEnd(page: Page) {
  await page.getByRole('button', { name: 'Start Video' }).click();
  await page.getByRole('button', { name: 'Submit Quiz' }).waitFor({ timeout: VIDEO_MS + 20_000 });
}

/**
 * Issue 7, safety induction: a manager adds a recorded video with a two-question quiz and assigns
 * it to a driver; the driver watches it (skipping ahead does not open the quiz), fails, rewatches
 * after the retake, and passes; the assignment shows Passed with two attempts.
 */
export async function runInductionFlow({
  flow,
  page,
  baseUrl,
  viewport,
  screenshot,
  pageErrors,
}: InductionFlowContext) {
  const suffix = `${viewport.name}-${Date.now().toString(36)}`;
  const admin = { username: `induct-${suffix}`, password: 'Admin-pass-1' };
  const title = `Site safety (${viewport.name})`;
  const folder = await mkdtemp(path.join(tmpdir(), 'boomgate-induction-'));
  const videoFile = path.join(folder, 'site-safety.webm');
  let inductionPath = '';

  try {
    await flow.step('registers an organization', async () => {
      await page.goto(`${baseUrl}/register`);
      await page.getByLabel('Organization Name').fill(`Sishen Induction (${viewport.name})`);
      await page.getByLabel('Full Name').fill('Induction Admin');
      await page.getByLabel('Username').fill(admin.username);
      await page.getByLabel('Password', { exact: true }).fill(admin.password);
      await page.getByLabel('Confirm Password').fill(admin.password);
      await page.getByRole('button', { name: 'Create Account' }).click();
      await expectPath(page, '/onboarding');
    });

    await flow.step('records a short test video in the browser', async () => {
      const bytes = await recordTestVideo(page);
      assert(bytes.length > 1000, `the recorded video has only ${bytes.length} bytes`);
      await writeFile(videoFile, bytes);
    });

    await flow.step(
      'adds the video with a two-question quiz on the Safety Videos screen',
      async () => {
        if (viewport.name === 'desktop') {
          await page.getByTestId('sidebar').getByRole('link', { name: 'Safety Videos' }).click();
        } else {
          await page.goto(`${baseUrl}/safety-videos`);
        }
        await expectPath(page, '/safety-videos');
        await expectHeading(page, 'Safety Videos');
        await page.getByRole('button', { name: 'Add Video' }).click();
        const dialog = page.getByRole('dialog', { name: 'Add Safety Video' });
        await dialog.getByLabel('Title').fill(title);
        await dialog.getByLabel('Description (optional)').fill('Walkways, speed limits and PPE.');
        await dialog.getByLabel('Pass score (%)').fill('100');
        await dialog.getByLabel('Video file').setInputFiles(videoFile);
        await dialog.getByLabel('Question 1 text').fill('Where do pedestrians walk?');
        await dialog.getByLabel('Question 1 option 1').fill('On the haul road');
        await dialog.getByLabel('Question 1 option 2').fill('On the marked walkway');
        await dialog.getByLabel('Option 2 is correct').first().check();
        await dialog.getByRole('button', { name: 'Add Question' }).click();
        await dialog.getByLabel('Question 2 text').fill('What is the speed limit on site?');
        await dialog.getByLabel('Question 2 option 1').fill('20 km/h');
        await dialog.getByLabel('Question 2 option 2').fill('80 km/h');
        await dialog.getByTestId('question-1').getByLabel('Option 1 is correct').check();
        await dialog.getByRole('button', { name: 'Save Video' }).click();
        await dialog.waitFor({ state: 'hidden', timeout: 30_000 });
        const row = page.getByRole('row').filter({ hasText: title });
        await row.waitFor();
        // The server read the recorded file's length itself (no Duration in a MediaRecorder webm).
        // By its test id: which cells show depends on the width (the language hides on a phone).
        const length = await row.getByTestId('video-length').textContent();
        assert(/^[23] s$/.test(length ?? ''), `the video length shows "${length}"`);
        await screenshot('safety-videos');
      },
    );

    await flow.step('assigns the video to a driver and opens the induction', async () => {
      await page.getByRole('button', { name: 'Assign Video' }).click();
      const dialog = page.getByRole('dialog', { name: 'Assign Safety Video' });
      await dialog.getByRole('combobox', { name: 'Video' }).click();
      await page.getByRole('option', { name: title }).click();
      await dialog.getByLabel('Driver name').fill('Sipho Nkosi');
      await dialog.getByLabel('ID number').fill('8001015009087');
      await dialog.getByRole('button', { name: 'Assign', exact: true }).click();
      await dialog.waitFor({ state: 'hidden' });
      const row = page.getByRole('row').filter({ hasText: 'Sipho Nkosi' });
      await row.getByText('Assigned').waitFor();
      await row.getByRole('link', { name: 'Open' }).click();
      await expectPath(page, /^\/safety-induction\/[0-9a-f-]{36}$/);
      inductionPath = new URL(page.url()).pathname;
      await expectHeading(page, 'Safety Induction');
      await page.getByText('Sipho Nkosi · ID 8001015009087').waitFor();
      assert(
        (await page.getByRole('button', { name: 'Submit Quiz' }).count()) === 0,
        'the quiz is shown before the video was played',
      );
    });

    await flow.step('skipping ahead does not open the quiz', async () => {
      await page.getByRole('button', { name: 'Start Video' }).click();
      await page.waitForTimeout(400);
      // Straight to the server, as a tampered page would: the end, 0.4 s after starting.
      const progress = await page.evaluate(async (assignmentId) => {
        const response = await fetch('/api/induction/progress', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ assignmentId, positionSeconds: 3600 }),
        });
        return (await response.json()) as { videoComplete: boolean; watchedSeconds: number };
      }, inductionPath.split('/').pop());
      assert(!progress.videoComplete, 'the server counted a jump to the end as watched');
      assert(progress.watchedSeconds < 2, `watched ${progress.watchedSeconds} s after 0.4 s`);
      // And the player itself: seeking past what was watched is snapped back.
      const position = await page.evaluate(() => {
        const video = document.querySelector<HTMLVideoElement>('[data-testid=induction-video]');
        if (!video) throw new Error('no video');
        video.currentTime = 60;
        return new Promise<number>((resolve) => setTimeout(() => resolve(video.currentTime), 300));
      });
      assert(position < 2.5, `the player stayed at ${position} s after seeking ahead`);
      await page.getByText('Skipping ahead is not counted').waitFor();
      assert(
        (await page.getByRole('button', { name: 'Submit Quiz' }).count()) === 0,
        'the quiz opened after seeking ahead',
      );
    });

    await flow.step(
      'the quiz opens when the video ends; an unanswered quiz is refused',
      async () => {
        await page
          .getByRole('button', { name: 'Submit Quiz' })
          .waitFor({ timeout: VIDEO_MS + 20_000 });
        await screenshot('quiz');
        await answer(page, ['On the marked walkway']);
        await page.getByRole('button', { name: 'Submit Quiz' }).click();
        await page.getByTestId('toast').filter({ hasText: 'Incomplete Quiz' }).first().waitFor();
      },
    );

    await flow.step('a wrong answer fails: Not Passed with the score and pass score', async () => {
      await answer(page, ['80 km/h']);
      await page.getByRole('button', { name: 'Submit Quiz' }).click();
      const result = page.getByTestId('induction-result');
      await result.getByText('Not Passed').waitFor();
      await result.getByText('You scored 50%. You need 100% to pass.').waitFor();
      assert(
        (await result.getByTestId('result-correct-answers').textContent()) === '1',
        'correct answers is not 1',
      );
      await screenshot('not-passed');
    });

    await flow.step(
      'rewatch resets the progress; watching again and answering right passes',
      async () => {
        await page.getByRole('button', { name: 'Rewatch Video' }).click();
        await page.getByRole('button', { name: 'Start Video' }).waitFor();
        assert(
          (await page.getByRole('button', { name: 'Submit Quiz' }).count()) === 0,
          'the quiz is still open after the retake',
        );
        await watchToTheEnd(page);
        await answer(page, ['On the marked walkway', '20 km/h']);
        await page.getByRole('button', { name: 'Submit Quiz' }).click();
        const result = page.getByTestId('induction-result');
        await result.getByText('Induction Passed').waitFor();
        await result.getByRole('img', { name: 'Passed' }).waitFor();
        await screenshot('passed');
      },
    );

    await flow.step(
      'a passed assignment shows the passed icon; the list shows two attempts',
      async () => {
        await page.reload();
        await page.getByTestId('induction-passed').getByRole('img', { name: 'Passed' }).waitFor();
        await page.goto(`${baseUrl}/safety-videos`);
        const row = page.getByRole('row').filter({ hasText: 'Sipho Nkosi' });
        await row.getByText('Passed').waitFor();
        if (viewport.name === 'desktop') {
          const cells = await row.getByRole('cell').allTextContents();
          assert(cells[3] === '2', `attempts shows "${cells[3]}"`);
        }
        assert(pageErrors.length === 0, `page errors: ${pageErrors.join('; ')}`);
      },
    );
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
