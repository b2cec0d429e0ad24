import { type ComponentType, lazy } from 'react';

import { loadScreenTexts } from '@/lib/i18n';

export type LazyScreen<P extends object = object> = ComponentType<P> & {
  /** Downloads the screen's code (once); later renders show it without suspending. */
  load: () => Promise<unknown>;
};

/**
 * Like React's `lazy`, but once the code has arrived (e.g. loaded ahead by `load()` while the
 * session was checked) the screen renders straight away: `lazy` suspends on its first render even
 * then, and React holds a Suspense boundary's content back for up to 300 ms after its fallback
 * showed.
 */
export function lazyScreen<P extends object = object>(
  importScreen: () => Promise<{ default: ComponentType<P> }>,
  {
    // The sign-in screens speak with the first-load catalogues only (lib/i18n); every other screen
    // waits for its language's texts as well as its code, so it never shows a key.
    needsScreenTexts = true,
  }: { needsScreenTexts?: boolean } = {},
): LazyScreen<P> {
  let Loaded: ComponentType<P> | undefined;
  let loading: Promise<{ default: ComponentType<P> }> | undefined;
  const load = () => {
    loading ??= Promise.all([
      importScreen(),
      needsScreenTexts ? loadScreenTexts() : undefined,
    ]).then(
      ([module]) => {
        Loaded = module.default;
        return module;
      },
      (error: unknown) => {
        loading = undefined; // a failed download may be tried again
        throw error;
      },
    );
    return loading;
  };
  const Lazy = lazy(load);
  function Screen(props: P) {
    return Loaded ? <Loaded {...props} /> : <Lazy {...props} />;
  }
  return Object.assign(Screen, { load });
}
