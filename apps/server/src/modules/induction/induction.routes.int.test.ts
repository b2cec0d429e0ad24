import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { aJpegDataUrl } from '@/testing/images';
import { type Session, type TestApp, createTestApp } from '@/testing/test-app';
import { anMp4, aWebm } from '@/testing/videos';

const QUESTIONS = [
  {
    question: 'Where do pedestrians walk?',
    options: ['Roadway', 'Marked walkway'],
    correctIndex: 1,
  },
  { question: 'Speed limit on site?', options: ['20 km/h', '60 km/h', '80 km/h'], correctIndex: 0 },
  { question: 'Hard hat required?', options: ['Yes', 'No'], correctIndex: 0 },
];
const ALL_RIGHT = [1, 0, 0];
const ONE_RIGHT = [1, 1, 1]; // 1 of 3 = 33 %

/** Answers must never reach the browser before submission: no field may even mention them. */
function expectNoAnswers(response: LightMyRequestResponse) {
  expect(response.body).not.toMatch(/correct/i);
}

describe('safety induction', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<TestApp['registerTenant']>>;
  let guard: Session;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.registerTenant();
    guard = await t.createSignedInUser(admin, 'security_guard');
  });
  afterAll(() => t.close());

  const upload = (session: Session, bytes: Buffer, contentType = 'video/mp4') =>
    t.inject({
      method: 'POST',
      url: '/api/safety-videos/files',
      payload: bytes,
      headers: { cookie: session.cookie, 'content-type': contentType },
    });

  async function createVideo(session: Session, durationSeconds = 30, passScore = 67) {
    const file = await upload(session, anMp4(durationSeconds));
    expect(file.statusCode).toBe(201);
    const created = await session.post('/api/safety-videos', {
      title: 'Site safety',
      description: 'Walkways, speed, PPE',
      passScore,
      questions: QUESTIONS,
      video: { kind: 'upload', fileKey: file.json().fileKey },
    });
    expect(created.statusCode).toBe(201);
    expectNoAnswers(created);
    return created.json<{ id: string; videoUrl: string; durationSeconds: number }>();
  }

  async function assign(session: Session, videoId: string, driverIdNumber = '8001015009087') {
    const response = await session.post('/api/induction/assignments', {
      videoId,
      driverName: 'Sipho Nkosi',
      driverIdNumber,
      driverImage: await aJpegDataUrl(),
    });
    expect(response.statusCode).toBe(201);
    expectNoAnswers(response);
    return response.json<{ id: string; status: string; driverImage: string }>();
  }

  /** Plays `fromSeconds` → `toSeconds` in real time with 2 s heartbeats on the fake clock. */
  async function watch(
    session: Session,
    assignmentId: string,
    fromSeconds: number,
    toSeconds: number,
  ) {
    let last: LightMyRequestResponse | undefined;
    for (let position = fromSeconds; ; position = Math.min(position + 2, toSeconds)) {
      if (position > fromSeconds) t.clock.advanceMs(2000);
      last = await session.post('/api/induction/progress', {
        assignmentId,
        positionSeconds: position,
      });
      expect(last.statusCode).toBe(200);
      expectNoAnswers(last);
      if (position >= toSeconds) break;
    }
    return last.json<{
      watchedSeconds: number;
      durationSeconds: number;
      videoComplete: boolean;
    }>();
  }

  it('reads the length of an uploaded video and serves it with Range to the same tenant only', async () => {
    const webm = aWebm(2.5);
    const file = await upload(admin, webm, 'video/webm');
    expect(file.statusCode).toBe(201);
    expect(file.json()).toMatchObject({ contentType: 'video/webm', sizeBytes: webm.length });
    expect(file.json().durationSeconds).toBeCloseTo(2.5, 1);
    const video = await admin.post('/api/safety-videos', {
      title: 'Recorded',
      passScore: 100,
      questions: [QUESTIONS[0]],
      video: { kind: 'upload', fileKey: file.json().fileKey },
    });
    const { id, videoUrl } = video.json<{ id: string; videoUrl: string }>();
    expect(videoUrl).toBe(`/api/safety-videos/${id}/file`);

    const whole = await guard.get(videoUrl);
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-type']).toBe('video/webm');
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.rawPayload.equals(webm)).toBe(true);

    const part = await guard.get(videoUrl, { headers: { range: 'bytes=10-19' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 10-19/${webm.length}`);
    expect(part.rawPayload.equals(webm.subarray(10, 20))).toBe(true);
    const beyond = await guard.get(videoUrl, { headers: { range: `bytes=${webm.length}-` } });
    expect(beyond.statusCode).toBe(416);
    const rest = await guard.get(videoUrl, { headers: { range: 'bytes=100-' } });
    expect(rest.statusCode).toBe(206);
    expect(rest.rawPayload.equals(webm.subarray(100))).toBe(true);

    // A large file is answered at most 2 MiB per range, whatever the range asks for.
    const large = anMp4(60, { mdatBytes: 5 * 1024 * 1024 });
    const largeFile = await upload(admin, large);
    const largeVideo = await admin.post('/api/safety-videos', {
      title: 'Large',
      passScore: 100,
      questions: [QUESTIONS[0]],
      video: { kind: 'upload', fileKey: largeFile.json().fileKey },
    });
    const largeUrl = largeVideo.json<{ videoUrl: string }>().videoUrl;
    const first = await guard.get(largeUrl, { headers: { range: 'bytes=0-' } });
    expect(first.statusCode).toBe(206);
    expect(first.headers['content-range']).toBe(`bytes 0-${2 * 1024 * 1024 - 1}/${large.length}`);
    expect(first.rawPayload.equals(large.subarray(0, 2 * 1024 * 1024))).toBe(true);
    const tail = await guard.get(largeUrl, { headers: { range: `bytes=${large.length - 500}-` } });
    expect(tail.rawPayload.equals(large.subarray(large.length - 500))).toBe(true);
    for (const asked of ['bytes=0-3145727', 'bytes=0-99999999']) {
      const explicit = await guard.get(largeUrl, { headers: { range: asked } });
      expect(explicit.statusCode).toBe(206);
      expect(explicit.headers['content-range']).toBe(
        `bytes 0-${2 * 1024 * 1024 - 1}/${large.length}`,
      );
      expect(explicit.rawPayload.equals(large.subarray(0, 2 * 1024 * 1024))).toBe(true);
    }
    const suffix = await guard.get(largeUrl, { headers: { range: 'bytes=-4000000' } });
    const suffixStart = large.length - 4_000_000;
    expect(suffix.headers['content-range']).toBe(
      `bytes ${suffixStart}-${suffixStart + 2 * 1024 * 1024 - 1}/${large.length}`,
    );
    expect(
      suffix.rawPayload.equals(large.subarray(suffixStart, suffixStart + 2 * 1024 * 1024)),
    ).toBe(true);
    // Without Range: the whole file, streamed in chunks, with its length.
    const wholeLarge = await guard.get(largeUrl);
    expect(wholeLarge.statusCode).toBe(200);
    expect(wholeLarge.headers['content-length']).toBe(String(large.length));
    expect(wholeLarge.rawPayload.equals(large)).toBe(true);

    const other = await t.registerTenant();
    const foreign = await other.get(videoUrl);
    const random = await other.get(`/api/safety-videos/${crypto.randomUUID()}/file`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).toBe(random.body);
    // Another tenant cannot build a video on this tenant's uploaded file either.
    const stolen = await other.post('/api/safety-videos', {
      title: 'Stolen',
      passScore: 50,
      questions: [QUESTIONS[0]],
      video: { kind: 'upload', fileKey: file.json().fileKey },
    });
    expect(stolen.statusCode).toBe(400);
    // Nor can a second video of this tenant share the file: deleting one would delete the other's.
    const shared = await admin.post('/api/safety-videos', {
      title: 'Shared',
      passScore: 50,
      questions: [QUESTIONS[0]],
      video: { kind: 'upload', fileKey: file.json().fileKey },
    });
    expect(shared.statusCode).toBe(409);
    expect(shared.json().error.message).toBe(
      'This uploaded video is already used by another video. Upload it again.',
    );
  });

  it('refuses a video longer than 2 hours at upload: it could never be watched to the end', async () => {
    const tooLong = await upload(admin, anMp4(2 * 3600 + 1));
    expect(tooLong.statusCode).toBe(422);
    expect(tooLong.json().error.message).toBe(
      'This video is longer than 2 hours. A safety video may be at most 2 hours long.',
    );
    expect((await upload(admin, anMp4(2 * 3600))).statusCode).toBe(201);
  });

  it('refuses files that are not mp4/webm, a mismatched type, and non-https URLs', async () => {
    const jpeg = Buffer.from((await aJpegDataUrl()).split(',')[1] ?? '', 'base64');
    const notVideo = await upload(admin, jpeg);
    expect(notVideo.statusCode).toBe(415);
    expect(notVideo.json().error.message).toBe('Only MP4 and WebM videos are accepted.');
    expect((await upload(admin, anMp4(5), 'video/webm')).statusCode).toBe(415);
    const json = await admin.post('/api/safety-videos/files', { file: 'x' });
    expect(json.statusCode).toBe(415);

    const plainHttp = await admin.post('/api/safety-videos', {
      title: 'Elsewhere',
      passScore: 80,
      questions: QUESTIONS,
      video: { kind: 'url', url: 'http://videos.example.com/induction.mp4', durationSeconds: 60 },
    });
    expect(plainHttp.statusCode).toBe(400);
    const badIndex = await admin.post('/api/safety-videos', {
      title: 'Bad',
      passScore: 80,
      questions: [{ question: 'Q?', options: ['A', 'B'], correctIndex: 2 }],
      video: { kind: 'url', url: 'https://videos.example.com/induction.mp4', durationSeconds: 60 },
    });
    expect(badIndex.statusCode).toBe(400);
    const url = await admin.post('/api/safety-videos', {
      title: 'Hosted',
      passScore: 80,
      questions: QUESTIONS,
      video: { kind: 'url', url: 'https://videos.example.com/induction.mp4', durationSeconds: 60 },
    });
    expect(url.statusCode).toBe(201);
    expect(url.json()).toMatchObject({
      source: 'url',
      videoUrl: 'https://videos.example.com/induction.mp4',
      durationSeconds: 60,
      questionCount: 3,
    });
  });

  it('lets tenant_admin and back_office manage, not a guard; every role may take an induction', async () => {
    const backOffice = await t.createSignedInUser(admin, 'back_office');
    const video = await createVideo(backOffice);
    const assignment = await assign(backOffice, video.id);

    for (const [method, url] of [
      ['GET', '/api/safety-videos'],
      ['POST', '/api/safety-videos'],
      ['POST', '/api/safety-videos/files'],
      ['DELETE', `/api/safety-videos/${video.id}`],
      ['GET', '/api/induction/assignments'],
      ['POST', '/api/induction/assignments'],
      ['DELETE', `/api/induction/assignments/${assignment.id}`],
    ] as const) {
      const response = await t.inject({ method, url, headers: { cookie: guard.cookie } });
      expect(response.statusCode, `${method} ${url}`).toBe(403);
    }
    const signedOut = await t.inject({
      method: 'GET',
      url: `/api/induction/assignment/${assignment.id}`,
    });
    expect(signedOut.statusCode).toBe(401);

    const asGuard = await guard.get(`/api/induction/assignment/${assignment.id}`);
    expect(asGuard.statusCode).toBe(200);
    expect((await guard.get(`/api/safety-videos/${video.id}`)).statusCode).toBe(200);
    // The management lists carry no questions at all.
    expectNoAnswers(await admin.get('/api/safety-videos'));
    expectNoAnswers(await admin.get('/api/induction/assignments'));
    expect((await admin.get('/api/induction/assignments')).json()).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: assignment.id, status: 'assigned' })]),
    );
  });

  it('scores on the server after the whole video: fail, retake, pass; answers never sent early', async () => {
    const video = await createVideo(admin, 30, 67);
    const assignment = await assign(admin, video.id, '800101 5009 088');

    const fetched = await guard.get(`/api/induction/assignment/${assignment.id}`);
    expectNoAnswers(fetched);
    expect(fetched.json()).toMatchObject({
      driverName: 'Sipho Nkosi',
      driverIdNumber: '8001015009088',
      status: 'assigned',
      attempts: 0,
      lastAttemptAt: null,
      videoComplete: false,
    });
    // Issue 26: sealed at rest (the normalised number), its keyed hash beside it.
    const [stored] = await t.ownerQuery<{ number: string; hash: string | null }>(
      `select driver_id_number as number, driver_id_number_hash as hash
       from induction_assignments where id = $1`,
      [assignment.id],
    );
    expect(stored?.number).toMatch(/^sv1\.\d+\./);
    expect(stored?.hash).toMatch(/^[\w-]{43}$/);
    const shown = await guard.get(`/api/safety-videos/${video.id}`);
    expectNoAnswers(shown);
    expect(shown.json()).toEqual({
      id: video.id,
      title: 'Site safety',
      description: 'Walkways, speed, PPE',
      videoUrl: `/api/safety-videos/${video.id}/file`,
      passScore: 67,
      durationSeconds: 30,
      questions: QUESTIONS.map(({ question, options }) => ({ question, options })),
      language: 'en',
      translationOf: null,
    });

    // Nothing watched yet: the quiz cannot be submitted.
    const early = await guard.post('/api/induction/submit', {
      assignmentId: assignment.id,
      responses: ALL_RIGHT,
      videoWatchedSeconds: 30,
    });
    expect(early.statusCode).toBe(409);
    expect(early.json().error.message).toBe('Watch the whole video before submitting the quiz.');
    expectNoAnswers(early);

    // Seeking ahead: 4 s watched, then a jump to the end one second later.
    await watch(guard, assignment.id, 0, 4);
    t.clock.advanceMs(1000);
    const skipped = await guard.post('/api/induction/progress', {
      assignmentId: assignment.id,
      positionSeconds: 30,
    });
    expect(skipped.json()).toMatchObject({ watchedSeconds: 5, videoComplete: false });
    expect(
      (
        await guard.post('/api/induction/submit', {
          assignmentId: assignment.id,
          responses: ALL_RIGHT,
        })
      ).statusCode,
    ).toBe(409);

    // Playing on from where the driver really was, to the end.
    const done = await watch(guard, assignment.id, 5, 30);
    expect(done).toMatchObject({ durationSeconds: 30, videoComplete: true });

    const incomplete = await guard.post('/api/induction/submit', {
      assignmentId: assignment.id,
      responses: [1, 0],
    });
    expect(incomplete.statusCode).toBe(400);
    expect(incomplete.json().error.message).toBe('Please answer all questions before submitting.');
    expectNoAnswers(incomplete);
    const outOfRange = await guard.post('/api/induction/submit', {
      assignmentId: assignment.id,
      responses: [1, 0, 5],
    });
    expect(outOfRange.statusCode).toBe(400);

    const failed = await guard.post('/api/induction/submit', {
      assignmentId: assignment.id,
      responses: ONE_RIGHT,
      videoWatchedSeconds: 30,
    });
    expect(failed.statusCode).toBe(200);
    expect(failed.json()).toEqual({
      passed: false,
      score: 33,
      passScore: 67,
      correctAnswers: 1,
      totalQuestions: 3,
    });
    const afterFail = (await guard.get(`/api/induction/assignment/${assignment.id}`)).json();
    expect(afterFail).toMatchObject({ status: 'failed', attempts: 1, lastScore: 33 });
    expect(afterFail.lastAttemptAt).toBe(t.clock.now().toISOString());

    // Retake resets the watched progress: the quiz is locked again until the video is rewatched.
    const retake = await guard.post(`/api/induction/retake/${assignment.id}`);
    expect(retake.statusCode).toBe(204);
    const reset = (await guard.get(`/api/induction/assignment/${assignment.id}`)).json();
    expect(reset).toMatchObject({ watchedSeconds: 0, videoComplete: false, attempts: 1 });
    expect(
      (
        await guard.post('/api/induction/submit', {
          assignmentId: assignment.id,
          responses: ALL_RIGHT,
        })
      ).statusCode,
    ).toBe(409);
    t.clock.advanceMs(60_000);
    await watch(guard, assignment.id, 0, 30);

    const passed = await guard.post('/api/induction/submit', {
      assignmentId: assignment.id,
      responses: ALL_RIGHT,
    });
    expect(passed.json()).toEqual({
      passed: true,
      score: 100,
      passScore: 67,
      correctAnswers: 3,
      totalQuestions: 3,
    });
    const afterPass = (await admin.get('/api/induction/assignments'))
      .json<{ id: string }[]>()
      .find((row) => row.id === assignment.id);
    expect(afterPass).toMatchObject({ status: 'passed', attempts: 2, lastScore: 100 });
    const again = await guard.post('/api/induction/submit', {
      assignmentId: assignment.id,
      responses: ALL_RIGHT,
    });
    expect(again.statusCode).toBe(409);

    const attempts = await t.ownerQuery<{ score: number; passed: boolean; responses: number[] }>(
      'select score, passed, responses from induction_attempts where assignment_id = $1 order by submitted_at',
      [assignment.id],
    );
    expect(attempts).toEqual([
      { score: 33, passed: false, responses: ONE_RIGHT },
      { score: 100, passed: true, responses: ALL_RIGHT },
    ]);
    const audits = await t.ownerQuery<{ actor_user_id: string; details: { score: number } }>(
      "select actor_user_id, details from audit_events where action = 'induction.submitted' and target_id = $1 order by occurred_at",
      [assignment.id],
    );
    expect(audits.map((row) => row.details.score)).toEqual([33, 100]);
    expect(audits[0]?.actor_user_id).toBe(guard.body.user.id);
  });

  it("answers another tenant's ids exactly like ids that do not exist", async () => {
    const video = await createVideo(admin);
    const assignment = await assign(admin, video.id);
    const other = await t.registerTenant();
    const random = crypto.randomUUID();

    const pairs: [string, string, string, Record<string, unknown>?][] = [
      ['GET', `/api/induction/assignment/${assignment.id}`, `/api/induction/assignment/${random}`],
      ['GET', `/api/safety-videos/${video.id}`, `/api/safety-videos/${random}`],
      ['POST', `/api/induction/retake/${assignment.id}`, `/api/induction/retake/${random}`],
      [
        'DELETE',
        `/api/induction/assignments/${assignment.id}`,
        `/api/induction/assignments/${random}`,
      ],
      ['DELETE', `/api/safety-videos/${video.id}`, `/api/safety-videos/${random}`],
    ];
    for (const [method, foreignUrl, randomUrl] of pairs) {
      const foreign = await t.inject({
        method: method,
        url: foreignUrl,
        headers: { cookie: other.cookie },
      });
      const missing = await t.inject({
        method: method,
        url: randomUrl,
        headers: { cookie: other.cookie },
      });
      expect(foreign.statusCode, foreignUrl).toBe(404);
      expect(foreign.body).toBe(missing.body.replaceAll(random, assignment.id));
    }
    for (const url of ['/api/induction/progress', '/api/induction/submit']) {
      const body = { assignmentId: assignment.id, positionSeconds: 1, responses: ALL_RIGHT };
      const { positionSeconds, responses, ...common } = body;
      const payload = url.endsWith('progress')
        ? { ...common, positionSeconds }
        : { ...common, responses };
      const foreign = await other.post(url, payload);
      const missing = await other.post(url, { ...payload, assignmentId: random });
      expect(foreign.statusCode, url).toBe(404);
      expect(foreign.body).toBe(missing.body);
    }
    const foreignAssign = await other.post('/api/induction/assignments', {
      videoId: video.id,
      driverName: 'X',
      driverIdNumber: '1',
    });
    expect(foreignAssign.statusCode).toBe(404);
    // The admin's own assignment is untouched.
    expect(
      (await admin.get(`/api/induction/assignment/${assignment.id}`)).json().watchedSeconds,
    ).toBe(0);
  });

  it('removes assignments, then the video; a video with assignments stays', async () => {
    const video = await createVideo(admin);
    const assignment = await assign(admin, video.id);
    expect((await admin.delete(`/api/safety-videos/${video.id}`)).statusCode).toBe(409);
    expect((await admin.delete(`/api/induction/assignments/${assignment.id}`)).statusCode).toBe(
      204,
    );
    expect((await admin.delete(`/api/safety-videos/${video.id}`)).statusCode).toBe(204);
    expect((await admin.get(`/api/safety-videos/${video.id}/file`)).statusCode).toBe(404);
  });

  it('deletes a video while an assignment is being made: a clear 409 or 404, never a 500', async () => {
    for (let round = 0; round < 4; round++) {
      const video = await createVideo(admin);
      const [deleted, assigned] = await Promise.all([
        admin.delete(`/api/safety-videos/${video.id}`),
        admin.post('/api/induction/assignments', {
          videoId: video.id,
          driverName: 'Sipho Nkosi',
          driverIdNumber: '8001015009087',
        }),
      ]);
      // Either the assignment came first (delete refused) or the delete did (assignment 404).
      expect([deleted.statusCode, assigned.statusCode].sort()).toEqual(
        deleted.statusCode === 204 ? [204, 404] : [201, 409],
      );
    }
  });
  it('answers valid, expired or none for a driver at the gate by the tenant validity period', async () => {
    const tenant = await t.registerTenant();
    const video = await createVideo(tenant, 4, 100);
    const assignment = await assign(tenant, video.id, '9202204720082');
    await watch(tenant, assignment.id, 0, 4);
    await tenant.post('/api/induction/submit', {
      assignmentId: assignment.id,
      responses: ALL_RIGHT,
    });
    const passedAt = t.clock.now();

    const valid = await tenant.get('/api/induction/status?idNumber=920220%204720082');
    expect(valid.json()).toEqual({
      status: 'valid',
      passedAt: passedAt.toISOString(),
      validUntil: new Date(passedAt.getTime() + 365 * 86_400_000).toISOString(),
    });
    expect((await tenant.get('/api/induction/status?idNumber=0000000000000')).json()).toEqual({
      status: 'none',
      passedAt: null,
      validUntil: null,
    });
    // Another tenant knows nothing of this driver.
    expect((await admin.get('/api/induction/status?idNumber=9202204720082')).json().status).toBe(
      'none',
    );
    expect((await tenant.get('/api/induction/status?idNumber=')).statusCode).toBe(400);

    // The organization's own validity period (settings) applies.
    const shorter = await tenant.patch('/api/settings', { inductionValidityDays: 30 });
    expect(shorter.statusCode).toBe(200);
    expect((await tenant.get('/api/induction/status?idNumber=9202204720082')).json()).toMatchObject(
      {
        status: 'valid',
        validUntil: new Date(passedAt.getTime() + 30 * 86_400_000).toISOString(),
      },
    );
    await tenant.patch('/api/settings', { inductionValidityDays: 365 });

    // Last in this file: a year later every session here has expired, so sign in again.
    t.clock.advanceMs(366 * 86_400_000);
    const later = await t.login(tenant.body.user.username, tenant.password);
    expect((await later.get('/api/induction/status?idNumber=9202204720082')).json().status).toBe(
      'expired',
    );
  });
});
