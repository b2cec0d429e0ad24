import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type Session, type TestApp, createTestApp } from '@/testing/test-app';

/** Issue 19: safety videos and their quizzes per language; an assignment in the driver's. */
describe('safety videos per language', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<TestApp['registerTenant']>>;
  let otherAdmin: Awaited<ReturnType<TestApp['registerTenant']>>;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.registerTenant();
    otherAdmin = await t.registerTenant();
  });
  afterAll(() => t.close());

  const question = (text: string) => ({
    question: text,
    options: ['A', 'B'],
    correctIndex: 0,
  });

  async function createVideo(
    session: Session,
    extra: { language?: string; translationOf?: string | null } = {},
  ) {
    return session.post('/api/safety-videos', {
      title: `Site safety (${extra.language ?? 'en'})`,
      passScore: 50,
      questions: [question(`Hard hat? (${extra.language ?? 'en'})`)],
      video: { kind: 'url', url: 'https://videos.example.com/safety.mp4', durationSeconds: 30 },
      ...extra,
    });
  }

  const assign = (session: Session, videoId: string, driverLanguage?: string) =>
    session.post('/api/induction/assignments', {
      videoId,
      driverName: 'Thabo Mokoena',
      driverIdNumber: '8001015009087',
      ...(driverLanguage ? { driverLanguage } : {}),
    });

  it('assigns the version in the driver language, else the chosen video, and says which', async () => {
    const original = await createVideo(admin);
    expect(original.statusCode).toBe(201);
    expect(original.json()).toMatchObject({ language: 'en', translationOf: null });
    const originalId = original.json<{ id: string }>().id;

    const zulu = await createVideo(admin, { language: 'zu', translationOf: originalId });
    expect(zulu.statusCode).toBe(201);
    expect(zulu.json()).toMatchObject({ language: 'zu', translationOf: originalId });
    const zuluId = zulu.json<{ id: string }>().id;

    // Chosen as the English original, assigned in isiZulu: the driver's version.
    const inZulu = await assign(admin, originalId, 'zu');
    expect(inZulu.statusCode).toBe(201);
    expect(inZulu.json()).toMatchObject({
      videoId: zuluId,
      videoTitle: 'Site safety (zu)',
      driverLanguage: 'zu',
      videoLanguage: 'zu',
    });
    // Chosen as the translation, the driver speaks English: the original.
    expect((await assign(admin, zuluId, 'en')).json()).toMatchObject({
      videoId: originalId,
      videoLanguage: 'en',
    });
    // No version in Sesotho: the chosen video, and the answer says it is not the driver's.
    expect((await assign(admin, originalId, 'st')).json()).toMatchObject({
      videoId: originalId,
      driverLanguage: 'st',
      videoLanguage: 'en',
    });
    // No language given: exactly as before issue 19.
    expect((await assign(admin, originalId)).json()).toMatchObject({
      videoId: originalId,
      driverLanguage: null,
    });

    // The driver's quiz is the isiZulu one.
    const assignmentId = inZulu.json<{ id: string }>().id;
    const list = await admin.get('/api/induction/assignments');
    const listed = list.json<{ id: string; videoLanguage: string }[]>();
    expect(listed.find((row) => row.id === assignmentId)?.videoLanguage).toBe('zu');
    const video = await admin.get(`/api/safety-videos/${zuluId}`);
    expect(video.json<{ questions: { question: string }[] }>().questions[0]?.question).toBe(
      'Hard hat? (zu)',
    );
  });

  it('keeps one version per language, translations of originals only, within the tenant', async () => {
    const originalId = (await createVideo(admin)).json<{ id: string }>().id;
    const afrikaans = await createVideo(admin, { language: 'af', translationOf: originalId });
    expect(afrikaans.statusCode).toBe(201);

    const again = await createVideo(admin, { language: 'af', translationOf: originalId });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: { code: 'CONFLICT' } });
    // The original's own language is taken by the original.
    expect(
      (await createVideo(admin, { language: 'en', translationOf: originalId })).statusCode,
    ).toBe(409);
    // A translation of a translation: 400, the original must be named.
    const chained = await createVideo(admin, {
      language: 'pt',
      translationOf: afrikaans.json<{ id: string }>().id,
    });
    expect(chained.statusCode).toBe(400);
    // Another tenant's video cannot be translated, nor seen to exist.
    const foreign = await createVideo(otherAdmin, { language: 'zu', translationOf: originalId });
    expect(foreign.statusCode).toBe(400);
    // A language the product does not know is a validation error.
    expect((await createVideo(admin, { language: 'klingon' })).statusCode).toBe(400);
    expect((await assign(admin, originalId, 'klingon')).statusCode).toBe(400);
  });

  it('refuses to delete an original while it has versions in other languages', async () => {
    const originalId = (await createVideo(admin)).json<{ id: string }>().id;
    const version = await createVideo(admin, { language: 'pt', translationOf: originalId });
    const blocked = await admin.delete(`/api/safety-videos/${originalId}`);
    expect(blocked.statusCode).toBe(409);
    expect(
      (await admin.delete(`/api/safety-videos/${version.json<{ id: string }>().id}`)).statusCode,
    ).toBe(204);
    expect((await admin.delete(`/api/safety-videos/${originalId}`)).statusCode).toBe(204);
  });
});
