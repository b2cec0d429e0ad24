import { http, HttpResponse } from 'msw';

import type {
  CreateInductionAssignmentBody,
  CreateSafetyVideoBody,
  InductionAssignment,
  SafetyVideoSummary,
  UploadedVideoFile,
} from '@boomgate/contracts/induction';

import { apiError } from './handlers';
import type { RecordedRequest } from './gate-api';

export function aSafetyVideo(overrides: Partial<SafetyVideoSummary> = {}): SafetyVideoSummary {
  const id = overrides.id ?? crypto.randomUUID();
  return {
    id,
    title: 'Site safety',
    description: 'Walkways, speed, PPE',
    videoUrl: `/api/safety-videos/${id}/file`,
    passScore: 80,
    durationSeconds: 125,
    source: 'upload',
    questionCount: 3,
    assignmentCount: 0,
    createdAt: '2026-11-20T08:00:00.000Z',
    language: 'en',
    translationOf: null,
    ...overrides,
  };
}

export function anInductionAssignment(
  overrides: Partial<InductionAssignment> = {},
): InductionAssignment {
  return {
    id: crypto.randomUUID(),
    videoId: crypto.randomUUID(),
    videoTitle: 'Site safety',
    driverName: 'Sipho Nkosi',
    driverIdNumber: '8001015009087',
    driverImage: null,
    status: 'assigned',
    attempts: 0,
    lastAttemptAt: null,
    lastScore: null,
    watchedSeconds: 0,
    videoComplete: false,
    passedAt: null,
    createdAt: '2026-11-21T08:00:00.000Z',
    driverLanguage: null,
    videoLanguage: 'en',
    ...overrides,
  };
}

/**
 * An in-memory stand-in for the safety-video management endpoints (videos, their file upload,
 * assignments), typed by the contracts, so lists change after a mutation as the app refetches
 * them. `requests` records what the app sent (for the raw upload, its headers only).
 */
export function createInductionApi(
  initial: { videos?: SafetyVideoSummary[]; assignments?: InductionAssignment[] } = {},
) {
  let videos = [...(initial.videos ?? [])];
  let assignments = [...(initial.assignments ?? [])];
  const requests: RecordedRequest[] = [];
  let createVideoAnswer: Response | null = null;

  const record = async (request: Request, body: unknown) => {
    const entry: RecordedRequest = {
      method: request.method,
      path: new URL(request.url).pathname,
      body,
      headers: Object.fromEntries(request.headers.entries()),
    };
    requests.push(entry);
    return entry;
  };
  const countAssignments = () => {
    videos = videos.map((video) => ({
      ...video,
      assignmentCount: assignments.filter((a) => a.videoId === video.id).length,
    }));
  };

  const handlers = [
    http.get('/api/safety-videos', () => HttpResponse.json(videos)),
    http.post('/api/safety-videos/files', async ({ request }) => {
      await record(request, undefined);
      const file: UploadedVideoFile = {
        fileKey: `tenant/safety-videos/${crypto.randomUUID()}.mp4`,
        contentType: 'video/mp4',
        sizeBytes: Number(request.headers.get('content-length') ?? 0),
        durationSeconds: 42,
      };
      return HttpResponse.json(file, { status: 201 });
    }),
    http.post('/api/safety-videos', async ({ request }) => {
      const body = (await request.json()) as CreateSafetyVideoBody;
      await record(request, body);
      if (createVideoAnswer) return createVideoAnswer;
      const video = aSafetyVideo({
        title: body.title,
        description: body.description ?? '',
        passScore: body.passScore,
        questionCount: body.questions.length,
        source: body.video.kind,
        durationSeconds: body.video.kind === 'url' ? body.video.durationSeconds : 42,
        language: body.language ?? 'en',
        translationOf: body.translationOf ?? null,
      });
      videos = [video, ...videos];
      return HttpResponse.json(video, { status: 201 });
    }),
    http.delete<{ id: string }>('/api/safety-videos/:id', async ({ request, params }) => {
      await record(request, undefined);
      const video = videos.find((candidate) => candidate.id === params.id);
      if (!video) return apiError(404, 'NOT_FOUND', 'Video not found.');
      if (assignments.some((assignment) => assignment.videoId === video.id)) {
        return apiError(
          409,
          'CONFLICT',
          'This video still has assignments. Remove its assignments first.',
        );
      }
      videos = videos.filter((candidate) => candidate.id !== params.id);
      return new HttpResponse(null, { status: 204 });
    }),
    http.get('/api/induction/assignments', () => HttpResponse.json(assignments)),
    http.post('/api/induction/assignments', async ({ request }) => {
      const body = (await request.json()) as CreateInductionAssignmentBody;
      await record(request, body);
      const chosen = videos.find((candidate) => candidate.id === body.videoId);
      if (!chosen) return apiError(404, 'NOT_FOUND', 'Video not found.');
      // As the server: the chosen video's version in the driver's language when there is one.
      const root = chosen.translationOf ?? chosen.id;
      const video =
        videos.find(
          (candidate) =>
            (candidate.id === root || candidate.translationOf === root) &&
            candidate.language === body.driverLanguage,
        ) ?? chosen;
      const assignment = anInductionAssignment({
        videoId: video.id,
        videoTitle: video.title,
        driverName: body.driverName,
        driverIdNumber: body.driverIdNumber,
        driverLanguage: body.driverLanguage ?? null,
        videoLanguage: video.language,
      });
      assignments = [assignment, ...assignments];
      countAssignments();
      return HttpResponse.json(assignment, { status: 201 });
    }),
  ];

  return {
    handlers,
    requests,
    /** What POST /api/safety-videos answers instead of saving (an error, say). */
    onCreateVideo(response: Response) {
      createVideoAnswer = response;
    },
    sent: (method: string, path: string) =>
      requests.filter((request) => request.method === method && request.path === path),
  };
}
