import { type ComponentType, lazy } from 'react';

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
): LazyScreen<P> {
  let Loaded: ComponentType<P> | undefined;
  let loading: Promise<{ default: ComponentType<P> }> | undefined;
  const load = () => {
    loading ??= importScreen().then(
      (module) => {
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
