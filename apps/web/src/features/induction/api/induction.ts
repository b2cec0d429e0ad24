import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';

import {
  type CreateInductionAssignmentBody,
  type CreateSafetyVideoBody,
  InductionAssignmentListSchema,
  InductionAssignmentSchema,
  InductionProgressSchema,
  InductionResultSchema,
  SafetyVideoSchema,
  SafetyVideoSummaryListSchema,
  SafetyVideoSummarySchema,
  type SubmitInductionBody,
  UploadedVideoFileSchema,
} from '@boomgate/contracts/induction';

import { env } from '@/config/env';
import { HttpError, request } from '@/lib/api-client';

/**
 * Spec §7: the assignment lists live under /api/induction/assignments; submit and retake refresh
 * them. The key's segments are the path's, as the spec's default reads are formed.
 */
export const inductionKeys = {
  assignments: ['/api/induction/assignments'] as const,
  assignment: (id: string) => ['/api/induction/assignment', id] as const,
  video: (id: string) => ['/api/safety-videos', id] as const,
  videos: ['/api/safety-videos'] as const,
};

export const assignmentQuery = (id: string) =>
  queryOptions({
    queryKey: inductionKeys.assignment(id),
    queryFn: ({ signal }) =>
      request('GET', `/api/induction/assignment/${encodeURIComponent(id)}`, {
        schema: InductionAssignmentSchema,
        signal,
      }),
  });

export const safetyVideoQuery = (id: string) =>
  queryOptions({
    queryKey: inductionKeys.video(id),
    queryFn: ({ signal }) =>
      request('GET', `/api/safety-videos/${encodeURIComponent(id)}`, {
        schema: SafetyVideoSchema,
        signal,
      }),
  });

export function useAssignment(id: string) {
  return useQuery(assignmentQuery(id));
}

export function useSafetyVideo(id: string | undefined) {
  return useQuery({ ...safetyVideoQuery(id ?? ''), enabled: Boolean(id) });
}

export function useSafetyVideos() {
  return useQuery({
    queryKey: inductionKeys.videos,
    queryFn: ({ signal }) =>
      request('GET', '/api/safety-videos', { schema: SafetyVideoSummaryListSchema, signal }),
  });
}

export function useAssignments() {
  return useQuery({
    queryKey: inductionKeys.assignments,
    queryFn: ({ signal }) =>
      request('GET', '/api/induction/assignments', {
        schema: InductionAssignmentListSchema,
        signal,
      }),
  });
}

/** A heartbeat while the video plays: the server answers how much it credits as watched. */
export function sendProgress(assignmentId: string, positionSeconds: number) {
  return request('POST', '/api/induction/progress', {
    schema: InductionProgressSchema,
    body: { assignmentId, positionSeconds },
  });
}

export function useSubmitInduction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SubmitInductionBody) =>
      request('POST', '/api/induction/submit', { schema: InductionResultSchema, body }),
    onSuccess: (_result, body) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: inductionKeys.assignments }),
        queryClient.invalidateQueries({ queryKey: inductionKeys.assignment(body.assignmentId) }),
      ]),
  });
}

export function useRetakeInduction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (assignmentId: string) =>
      request('POST', `/api/induction/retake/${encodeURIComponent(assignmentId)}`, {
        schema: z.unknown(),
      }),
    onSuccess: (_result, assignmentId) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: inductionKeys.assignments }),
        queryClient.invalidateQueries({ queryKey: inductionKeys.assignment(assignmentId) }),
      ]),
  });
}

/** The raw file goes first (its own size limit and type check), then the video with its quiz. */
async function uploadVideoFile(file: File) {
  const response = await fetch(`${env.API_ORIGIN}/api/safety-videos/files`, {
    method: 'POST',
    credentials: 'include',
    headers: { 'content-type': file.type || 'application/octet-stream' },
    body: file,
  });
  if (!response.ok) throw await HttpError.from(response);
  return UploadedVideoFileSchema.parse(await response.json());
}

export type NewSafetyVideo = Omit<CreateSafetyVideoBody, 'video'> & {
  video: { kind: 'upload'; file: File } | { kind: 'url'; url: string; durationSeconds: number };
};

export function useCreateSafetyVideo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ video, ...rest }: NewSafetyVideo) => {
      const source =
        video.kind === 'upload'
          ? { kind: 'upload' as const, fileKey: (await uploadVideoFile(video.file)).fileKey }
          : video;
      return request('POST', '/api/safety-videos', {
        schema: SafetyVideoSummarySchema,
        body: { ...rest, video: source },
      });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: inductionKeys.videos }),
  });
}

export function useDeleteSafetyVideo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (videoId: string) =>
      request('DELETE', `/api/safety-videos/${encodeURIComponent(videoId)}`, {
        schema: z.unknown(),
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: inductionKeys.videos }),
  });
}

export function useCreateAssignment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateInductionAssignmentBody) =>
      request('POST', '/api/induction/assignments', { schema: InductionAssignmentSchema, body }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: inductionKeys.assignments }),
        queryClient.invalidateQueries({ queryKey: inductionKeys.videos }),
      ]),
  });
}

export function useDeleteAssignment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (assignmentId: string) =>
      request('DELETE', `/api/induction/assignments/${encodeURIComponent(assignmentId)}`, {
        schema: z.unknown(),
      }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: inductionKeys.assignments }),
        queryClient.invalidateQueries({ queryKey: inductionKeys.videos }),
      ]),
  });
}
