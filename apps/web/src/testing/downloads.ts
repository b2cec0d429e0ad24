import { afterEach, vi } from 'vitest';

/**
 * jsdom has no object URLs and does not download: records what the app would save (saveBlob's
 * object URL and link click). Call inside a test; restored after each test.
 */
export function captureDownloads() {
  const saved: { fileName: string; blob: Blob }[] = [];
  const blobs = new Map<string, Blob>();
  Object.assign(URL, {
    createObjectURL: (blob: Blob) => {
      const url = `blob:test/${blobs.size}`;
      blobs.set(url, blob);
      return url;
    },
    revokeObjectURL: () => undefined,
  });
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    const blob = blobs.get(this.href);
    if (blob) saved.push({ fileName: this.download, blob });
  });
  return saved;
}

/** Puts URL's statics back after each test of the calling file (register at module level). */
export function restoreDownloadsAfterEach() {
  const urlStatics = ['createObjectURL', 'revokeObjectURL'].map(
    (name) => [name, Object.getOwnPropertyDescriptor(URL, name)] as const,
  );
  afterEach(() => {
    for (const [name, descriptor] of urlStatics) {
      if (descriptor) Object.defineProperty(URL, name, descriptor);
      else Reflect.deleteProperty(URL, name);
    }
    vi.restoreAllMocks();
  });
}
