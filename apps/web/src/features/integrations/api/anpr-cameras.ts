import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';

import {
  AnprCameraListSchema,
  AnprCameraSchema,
  type CreateAnprCameraBody,
  CreatedAnprCameraSchema,
  type UpdateAnprCameraBody,
} from '@boomgate/contracts/anpr';

import { request } from '@/lib/api-client';

export const anprCameraKeys = { all: ['anpr', 'cameras'] as const };

export const anprCamerasQuery = () =>
  queryOptions({
    queryKey: anprCameraKeys.all,
    queryFn: ({ signal }) =>
      request('GET', '/api/anpr/cameras', { schema: AnprCameraListSchema, signal }),
  });

export function useAnprCameras() {
  return useQuery(anprCamerasQuery());
}

/** POST /api/anpr/cameras: the answer carries the camera's secret push URL, shown once. */
export function useCreateAnprCamera() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateAnprCameraBody) =>
      request('POST', '/api/anpr/cameras', { schema: CreatedAnprCameraSchema, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: anprCameraKeys.all }),
  });
}

/** PATCH /api/anpr/cameras/{id}: issue 16, move a camera to another site (its reads follow). */
export function useUpdateAnprCamera() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdateAnprCameraBody }) =>
      request('PATCH', `/api/anpr/cameras/${encodeURIComponent(id)}`, {
        schema: AnprCameraSchema,
        body,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: anprCameraKeys.all }),
  });
}

export function useDeleteAnprCamera() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      request('DELETE', `/api/anpr/cameras/${encodeURIComponent(id)}`, { schema: z.unknown() }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: anprCameraKeys.all }),
  });
}
