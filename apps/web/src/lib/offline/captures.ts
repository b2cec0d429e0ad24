import type { QueuedCapture } from './offline-db';

const DATA_URL = /^data:([^;,]+)?(;base64)?,(.*)$/s;

/** A data URL image (what the camera overlay captures) as bytes to keep in IndexedDB. */
export function captureFromDataUrl(field: string, dataUrl: string): QueuedCapture {
  const match = DATA_URL.exec(dataUrl);
  if (!match) throw new Error(`${field} is not a data URL`);
  const [, type = 'application/octet-stream', base64, payload = ''] = match;
  const binary = base64 ? atob(payload) : decodeURIComponent(payload);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return { field, type, bytes: bytes.buffer };
}

/** The stored bytes as the data URL the API takes. */
export function dataUrlFromCapture(capture: QueuedCapture): string {
  const bytes = new Uint8Array(capture.bytes);
  let binary = '';
  // In slices: String.fromCharCode with a whole photo's bytes as arguments overflows the stack.
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return `data:${capture.type};base64,${btoa(binary)}`;
}
