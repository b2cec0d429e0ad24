/**
 * jsdom lacks a few browser APIs the app and Radix use. These shims behave like a browser of the
 * width set with setViewportWidth(), so layout-switching code runs for real.
 */

const mediaListeners = new Set<() => void>();

function matchesQuery(query: string): boolean {
  const max = /\(max-width:\s*(\d+)px\)/.exec(query);
  if (max?.[1]) return window.innerWidth <= Number(max[1]);
  const min = /\(min-width:\s*(\d+)px\)/.exec(query);
  if (min?.[1]) return window.innerWidth >= Number(min[1]);
  return false;
}

export function setViewportWidth(width: number) {
  Object.defineProperty(window, 'innerWidth', { configurable: true, writable: true, value: width });
  for (const listener of mediaListeners) listener();
}

export function installBrowserShims() {
  window.matchMedia = (query: string): MediaQueryList => {
    const list = {
      media: query,
      get matches() {
        return matchesQuery(query);
      },
      onchange: null,
      addEventListener: (_type: string, listener: () => void) => mediaListeners.add(listener),
      removeEventListener: (_type: string, listener: () => void) => mediaListeners.delete(listener),
      addListener: (listener: () => void) => mediaListeners.add(listener),
      removeListener: (listener: () => void) => mediaListeners.delete(listener),
      dispatchEvent: () => false,
    };
    return list as unknown as MediaQueryList;
  };

  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };

  // Radix Select relies on pointer capture and scrolling into view.
  shimElementMethod('hasPointerCapture', () => false);
  shimElementMethod('setPointerCapture', () => undefined);
  shimElementMethod('releasePointerCapture', () => undefined);
  shimElementMethod('scrollIntoView', () => undefined);
}

function shimElementMethod(name: keyof Element, implementation: () => unknown) {
  if (name in Element.prototype) return;
  Object.defineProperty(Element.prototype, name, {
    configurable: true,
    writable: true,
    value: implementation,
  });
}
