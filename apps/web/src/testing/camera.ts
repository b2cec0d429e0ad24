import { screen, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { vi } from 'vitest';

import { i18next } from '@/lib/i18n';

/** A tiny real JPEG (1×1), as an upload. */
const JPEG_BYTES = Uint8Array.from(
  atob(
    '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDL/wAALCAABAAEBAREA/8QAFAABAAAAAAAAAAAAAAAAAAAACf/EABQQAQAAAAAAAAAAAAAAAAAAAAD/2gAIAQEAAD8AKp//2Q==',
  ),
  (char) => char.charCodeAt(0),
);

export function aJpegFile(name = 'photo.jpg', size?: number): File {
  const file = new File([JPEG_BYTES], name, { type: 'image/jpeg' });
  if (size !== undefined) Object.defineProperty(file, 'size', { value: size });
  return file;
}

export type FakeTrack = { stop: ReturnType<typeof vi.fn>; kind: string };

/**
 * Gives jsdom a camera: getUserMedia answers a stream whose tracks record stop(), or fails with
 * `error`. Returns the mock, the streams handed out, and `unsupported()` to remove the API.
 */
export function installFakeCamera({ error }: { error?: DOMException | Error } = {}) {
  const streams: { tracks: FakeTrack[]; constraints: MediaStreamConstraints }[] = [];
  const getUserMedia = vi.fn(async (constraints: MediaStreamConstraints) => {
    if (error) throw error;
    const tracks: FakeTrack[] = [{ stop: vi.fn(), kind: 'video' }];
    streams.push({ tracks, constraints });
    return { getTracks: () => tracks, getVideoTracks: () => tracks } as unknown as MediaStream;
  });
  Object.defineProperty(navigator, 'mediaDevices', {
    configurable: true,
    value: { getUserMedia },
  });
  return { getUserMedia, streams };
}

export function removeCamera() {
  Object.defineProperty(navigator, 'mediaDevices', { configurable: true, value: undefined });
}

/** The open camera overlay. */
export async function findCamera(name?: string) {
  return screen.findByRole('dialog', name ? { name } : undefined);
}

/**
 * Uploads an image through the open camera overlay (upload always works, camera or not). Its
 * label is looked up in the language the test chose (the overlay speaks it too).
 */
export async function uploadThroughCamera(user: UserEvent, name?: string, file = aJpegFile()) {
  const dialog = await findCamera(name);
  await user.upload(within(dialog).getByLabelText(i18next.t('shared:camera.upload')), file);
}
